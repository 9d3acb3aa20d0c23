/**
 * The CLI's signal policy; the library sets none. The first SIGINT, SIGTERM or SIGHUP kills the chaos
 * processes at once and aborts, so the runner stops its runs, judges them on a server still up
 * and a partial report is written; a second one exits at once, the chaos processes with it.
 * While the report is being written (`holdWhile`), a signal waits for it: a folder half written
 * (a junit.xml with no summary.json) would say less than what ran, or something else.
 */
import { killAllChildren, killStrikingChildren } from '../chaos/index.ts';
import { EXIT } from './exit-code.ts';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface SignalStop {
  /** Aborted by the first signal (or the parent's going, or stderr's closing). */
  signal: AbortSignal;
  /** Gives the signals their default effect back. */
  release(): void;
  /** Runs `work` with signals held: one that arrives is said, and returned after `work` is done. */
  holdWhile(work: () => Promise<void>, saying: string): Promise<string | undefined>;
}

/** How often longrun looks for its parent: a CI cancel that kills only npx leaves longrun orphaned. */
const PARENT_CHECK_MS = 1_000;

/**
 * `onFirst` says what the first stop does (the second needs no words); it is given the signal's
 * name, or why longrun stops without one: its parent gone (`npx` killed alone, as a CI cancel
 * or `docker stop` does), or its stderr closed (nobody is reading it any more).
 */
export function stopOnSignals(onFirst: (why: string) => void): SignalStop {
  const controller = new AbortController();
  let holding: { saying: string; held?: string } | undefined;
  // A second signal quits at once; the parent's going or stderr's closing after a stop changes nothing.
  const stop = (why: string, isSignal = true) => {
    if (holding) {
      if (!holding.held) say(`\nlongrun: ${why}: ${holding.saying}\n`);
      holding.held ??= why;
      return;
    }
    if (controller.signal.aborted && !isSignal) return;
    // Nothing a chaos process would still do belongs in a partial report; the infrastructure the
    // stop needs (Toxiproxy, the server's path to its database) goes with the harness, last.
    if (controller.signal.aborted) {
      killAllChildren();
      process.exit(EXIT.interrupted);
    }
    killStrikingChildren();
    onFirst(why);
    controller.abort();
  };
  const onSignal = (signal: NodeJS.Signals) => stop(signal);
  for (const name of SIGNALS) process.on(name, onSignal);
  const parent = process.ppid;
  const parentCheck = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(parentCheck);
    stop('its parent process is gone', false);
  }, PARENT_CHECK_MS);
  parentCheck.unref();
  let stderrClosed = false;
  const onStderrError = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' || stderrClosed) return;
    stderrClosed = true;
    stop('its stderr was closed', false);
  };
  process.stderr.on('error', onStderrError);
  return {
    signal: controller.signal,
    release() {
      for (const name of SIGNALS) process.off(name, onSignal);
      clearInterval(parentCheck);
      process.stderr.off('error', onStderrError);
    },
    async holdWhile(work, saying) {
      const held: { saying: string; held?: string } = { saying };
      holding = held;
      try {
        await work();
      } finally {
        holding = undefined;
      }
      return held.held;
    },
  };
}

/** A line on stderr, which may be closed by now: then nobody is there to read it. */
function say(line: string): void {
  try {
    process.stderr.write(line);
  } catch {}
}
