/**
 * Calls to the Temporal server that outlast its absence: a chaos restart or a network fault
 * makes the frontend unavailable for seconds, and the runner's watch, start, terminate and
 * history fetches must wait for it rather than fail the scenario.
 */
import { ServerExitedError } from '../environment/index.ts';
import { sleep } from '../shared/sleep.ts';

/** gRPC UNAVAILABLE and DEADLINE_EXCEEDED: the server is not there (yet). */
const UNAVAILABLE_CODES = new Set([14, 4]);
const RETRY_EVERY_MS = 250;
/** How long the runner's calls wait for a server that is down (a chaos restart takes seconds). */
export const SERVER_DOWN_TOLERANCE_MS = 60_000;

export function isServerUnavailable(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'number' && UNAVAILABLE_CODES.has(code)) return true;
    if (/\b(UNAVAILABLE|DEADLINE_EXCEEDED|ECONNREFUSED|ECONNRESET)\b/.test(current.message)) return true;
  }
  return false;
}

/** Why the server will not come back (its process exited: server-watch.ts), or undefined. */
let serverGone: string | undefined;

/** Said by the server watch: the calls waiting for the server give up at once, with this reason. */
export function markServerGone(reason: string | undefined): void {
  serverGone = reason;
}

/** The error a call waiting for a server that is gone ends with: one line, the cause. */
export class ServerGoneError extends Error {}

/**
 * `start` (the server, the mocks and the workers), once more when the server it started died
 * before any run did: nothing is lost, and a Go server has been seen to die under load right
 * after its start. Said in one line on `say`. A server the caller gave (`ownServer` false) is
 * theirs to restart; any other error, an abort, or a second death ends the start.
 */
export async function startedAgainIfServerDied<T>(
  start: () => Promise<T>,
  options: { ownServer: boolean; signal?: AbortSignal; say?: (line: string) => void },
): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const died = error instanceof ServerGoneError || error instanceof ServerExitedError;
    if (!died || !options.ownServer || options.signal?.aborted) throw error;
    (options.say ?? ((line) => process.stderr.write(line)))(`longrun: ${error.message}, before any run started; starting it again\n`);
    return start();
  }
}

/**
 * `call`, again while the server is unavailable, for up to `toleranceMs`; other errors at once,
 * and at once when the server's process is known to be gone.
 */
export async function whileServerDown<T>(call: () => Promise<T>, toleranceMs: number): Promise<T> {
  const deadline = Date.now() + toleranceMs;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!isServerUnavailable(error)) throw error;
      if (serverGone !== undefined) throw new ServerGoneError(serverGone, { cause: error });
      if (Date.now() > deadline) throw error;
      await sleep(RETRY_EVERY_MS);
    }
  }
}
