/** A command longrun runs for a foreign worker: the worker itself, its build, its replayer. */
import { execFile } from 'node:child_process';
import { childEnv } from '../shared/child-env.ts';
import { terminalText } from '../shared/visible-text.ts';

export interface ForeignCommand {
  /** The program and its arguments (no shell). */
  argv: readonly string[];
  /** The working directory (absolute; a scenario's are resolved against its file's folder). */
  cwd?: string;
  /** Added to longrun's own environment. */
  env?: Readonly<Record<string, string>>;
}

/** "`go-kernel worker --binary v1` in examples/go-kernel": how messages name a command (from a scenario file: its controls shown). */
export function describeCommand(command: ForeignCommand): string {
  return terminalText(`\`${command.argv.join(' ')}\`${command.cwd ? ` in ${command.cwd}` : ''}`);
}

/** Lines a runtime prints after the cause of a crash: Node's version trailer and stack frames, go run's exit status. */
const AFTER_THE_CAUSE = [/^Node\.js v\d/, /^\s+at /, /^exit status \d+$/];

/**
 * The line of a command's output that says what went wrong, or '': Go's `panic: ...` (a
 * goroutine dump follows it), else the last line that is not a runtime's trailer (Node ends an
 * uncaught error with its stack and `Node.js v20...`; Python's traceback ends with its cause).
 */
export function lastMeaningfulLine(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const panic = lines.find((line) => line.startsWith('panic: '));
  if (panic) return panic.trim();
  const said = lines.filter((line) => !AFTER_THE_CAUSE.some((trailer) => trailer.test(line)));
  return (said.at(-1) ?? lines.at(-1) ?? '').trim();
}

/** Lines of a crashed command's stderr kept, and characters of each: enough to see its cause, never its whole dump. */
export const STDERR_TAIL_LINES = 5;
const STDERR_LINE_MAX = 240;

/** The last `STDERR_TAIL_LINES` non-blank lines of a command's stderr, each cut at 240 characters. */
export function stderrTail(text: string, lines = STDERR_TAIL_LINES): string[] {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(-lines)
    .map((line) => (line.length > STDERR_LINE_MAX ? `${line.slice(0, STDERR_LINE_MAX - 3)}...` : line));
}

/** "2.1 s", "45 s": a tenth of a second where it tells something. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
}

/** "exited with SIGABRT after 2.1 s", "exited with code 3 after 0.4 s": what happened, as it happened. */
export function describeExit(code: number | null, signal: string | null | undefined, elapsedMs: number): string {
  return `exited with ${signal ?? `code ${code ?? 'unknown'}`} after ${formatSeconds(elapsedMs)}`;
}

export interface CommandOutcome {
  /** Its exit code; null when it did not get to exit by itself (`failure` says why). */
  code: number | null;
  /** The signal that ended it, when one did. */
  signal?: string;
  /** From its start to its end. */
  elapsedMs: number;
  stderr: string;
  /**
   * Why it did not run to an exit code of its own: "could not start: ENOENT", "exited with
   * SIGABRT after 2.1 s", "stopped by longrun after its timeout of 120 s".
   */
  failure?: string;
}

/** Runs a foreign command to its end (its build, its replayer) with `extraArgs` appended. */
export function runForeignCommand(command: ForeignCommand, extraArgs: readonly string[], timeoutMs: number): Promise<CommandOutcome> {
  const [program, ...args] = command.argv;
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      program as string,
      [...args, ...extraArgs],
      { cwd: command.cwd, env: { ...childEnv(), ...command.env }, timeout: timeoutMs, maxBuffer: MAX_OUTPUT_BYTES },
      (error, _stdout, stderr) => {
        const elapsedMs = Date.now() - started;
        if (!error) return resolve({ code: 0, elapsedMs, stderr });
        const { code, killed, signal } = error as NodeJS.ErrnoException & { killed?: boolean; signal?: NodeJS.Signals | null };
        if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
          return resolve({
            code: null,
            elapsedMs,
            stderr,
            failure: `stopped by longrun after ${formatSeconds(elapsedMs)}: its output passed 64 MiB`,
          });
        if (typeof code === 'string') return resolve({ code: null, elapsedMs, stderr, failure: `could not start: ${code}` });
        // `killed`: longrun's own timeout ended it; a signal otherwise came from the command itself (an abort, a segfault) or from outside.
        if (killed)
          return resolve({ code: null, elapsedMs, stderr, failure: `stopped by longrun after its timeout of ${formatSeconds(timeoutMs)}` });
        if (signal) return resolve({ code: null, signal, elapsedMs, stderr, failure: describeExit(null, signal, elapsedMs) });
        resolve({ code: typeof code === 'number' ? code : 1, elapsedMs, stderr });
      },
    );
  });
}

const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
