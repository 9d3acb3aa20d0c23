/** The steady section's arithmetic: turns per second inside a window of a counter's samples. Pure. */

export interface CountSample {
  /** Since the side started, ms. */
  atMs: number;
  /** Turns begun so far. */
  turns: number;
}

export interface WindowRate {
  turns: number;
  seconds: number;
  turnsPerSecond: number;
}

/**
 * From the first sample at or after `fromMs` to the first at or after `fromMs + windowMs`: the
 * start-up before the window and the runs' ends after it (the last judging of a section) stay out.
 */
export function windowRate(samples: readonly CountSample[], fromMs: number, windowMs: number): WindowRate {
  const start = samples.find((s) => s.atMs >= fromMs);
  const end = samples.find((s) => s.atMs >= fromMs + windowMs);
  if (!start || !end) {
    const last = samples.at(-1)?.atMs ?? 0;
    throw new Error(`windowRate: the samples end at ${Math.round(last)} ms, before the window ${fromMs}-${fromMs + windowMs} ms closes`);
  }
  const seconds = (end.atMs - start.atMs) / 1000;
  const turns = end.turns - start.turns;
  return { turns, seconds, turnsPerSecond: turns / seconds };
}
