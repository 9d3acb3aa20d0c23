/**
 * The CLI's signal policy; the library sets none. The first SIGINT, SIGTERM or SIGHUP kills the chaos
 * processes at once and aborts, so the runner stops its runs, judges them on a server still up
 * and a partial report is written; a second one exits at once, the chaos processes with it.
 * While the report is being written (`holdWhile`), a signal waits for it: a folder half written
 * (a junit.xml with no summary.json) would say less than what ran, or something else.
 */
import { killAllChildren } from '../chaos/index.ts';
import { EXIT } from './exit-code.ts';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface SignalStop {
  /** Aborted by the first signal. */
  signal: AbortSignal;
  /** Gives the signals their default effect back. */
  release(): void;
  /** Runs `work` with signals held: one that arrives is said, and returned after `work` is done. */
  holdWhile(work: () => Promise<void>, saying: string): Promise<NodeJS.Signals | undefined>;
}

/** `onFirst` says what the first signal does (the second needs no words). */
export function stopOnSignals(onFirst: (signal: NodeJS.Signals) => void): SignalStop {
  const controller = new AbortController();
  let holding: { saying: string; held?: NodeJS.Signals } | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (holding) {
      if (!holding.held) process.stderr.write(`\nlongrun: ${signal}: ${holding.saying}\n`);
      holding.held ??= signal;
      return;
    }
    // Nothing a chaos process would still do belongs in a partial report.
    killAllChildren();
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    onFirst(signal);
    controller.abort();
  };
  for (const name of SIGNALS) process.on(name, stop);
  return {
    signal: controller.signal,
    release() {
      for (const name of SIGNALS) process.off(name, stop);
    },
    async holdWhile(work, saying) {
      const held: { saying: string; held?: NodeJS.Signals } = { saying };
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
