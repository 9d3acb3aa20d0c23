/**
 * The CLI's signal policy; the library sets none. The first SIGINT or SIGTERM kills the chaos
 * processes at once and aborts, so the runner stops its runs, judges them on a server still up
 * and a partial report is written; a second one exits at once, the chaos processes with it.
 */
import { killAllChildren } from '../chaos/index.ts';
import { EXIT } from './exit-code.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface SignalStop {
  /** Aborted by the first signal. */
  signal: AbortSignal;
  /** Gives the signals their default effect back. */
  release(): void;
}

/** `onFirst` says what the first signal does (the second needs no words). */
export function stopOnSignals(onFirst: (signal: NodeJS.Signals) => void): SignalStop {
  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals) => {
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
  };
}
