/**
 * A start-up cut short by the caller's abort signal (longrun's Ctrl-C or SIGTERM) before any run
 * started: what was started is stopped and removed first, so there is nothing to judge and
 * nothing to report; the CLI exits with its own code for it.
 */
export class InterruptedError extends Error {
  override name = 'InterruptedError';
}

/** Throws an InterruptedError saying what was under way when `signal` was aborted. */
export function throwIfInterrupted(signal: AbortSignal | undefined, during: string): void {
  if (signal?.aborted) throw new InterruptedError(`interrupted while ${during}; everything it had started is stopped and removed`);
}
