/**
 * The arrivals of a scenario's runs, closed model (N in flight) or open model (a rate, or a
 * ramp's offsets), by count or for a duration, over a clock it is given: the process's in
 * src/runner/run-driver.ts, the workflow's in src/distributed/drive-workflow.ts. It imports
 * nothing, so that workflow code may run it.
 */

export interface Arrivals {
  /** Runs to start at most (ignored when `durationMs` or `offsetMs` is set). */
  count: number;
  /** Runs in flight at once. */
  concurrency: number;
  /** Open model: runs started per second. */
  arrivalRate?: number;
  /** Keep starting runs for this long. */
  durationMs?: number;
  /** A ramp: run n starts `offsetMs(n)` after the first, none once it gives undefined. */
  offsetMs?: (index: number) => number | undefined;
  /** Goes on from where an earlier loop stopped (its position): its runs not started again, its schedule's timing kept. */
  from?: Pick<ArrivalPosition, 'next' | 'startedAtMs'>;
}

/** Where a loop has got to. */
export interface ArrivalPosition {
  /** Runs started so far (those of the loop it went on from too): the next run's index. */
  next: number;
  /** When the schedule began, on the loop's clock: offsets and the duration count from it. */
  startedAtMs: number;
  /** No run is left to start: the count, the offsets or the duration is used up. */
  done: boolean;
}

export interface ArrivalClock {
  now(): number;
  /** Resolves after `ms`, or sooner once `stopped()`. */
  sleep(ms: number): Promise<void>;
  stopped(): boolean;
}

/**
 * Calls `runOne(index)` for index 0, 1, ... as the arrivals allow, until they are used up or the
 * clock is stopped; resolves, with where it got to, when all it started have finished.
 */
export async function arrive(arrivals: Arrivals, clock: ArrivalClock, runOne: (index: number) => Promise<void>): Promise<ArrivalPosition> {
  const started = arrivals.from?.startedAtMs ?? clock.now();
  const inFlight = new Set<Promise<void>>();
  let next = arrivals.from?.next ?? 0;
  const { offsetMs } = arrivals;
  const left = () =>
    offsetMs
      ? offsetMs(next) !== undefined
      : arrivals.durationMs !== undefined
        ? clock.now() - started < arrivals.durationMs
        : next < arrivals.count;
  const more = () => !clock.stopped() && left();
  const gap = !offsetMs && arrivals.arrivalRate ? 1000 / arrivals.arrivalRate : 0;
  while (more()) {
    if (inFlight.size >= arrivals.concurrency) {
      await Promise.race(inFlight);
      continue;
    }
    const due = offsetMs ? (offsetMs(next) as number) - (clock.now() - started) : 0;
    if (due > 0) {
      await clock.sleep(due);
      continue;
    }
    const index = next++;
    const run = runOne(index).finally(() => inFlight.delete(run));
    inFlight.add(run);
    if (gap > 0) await clock.sleep(gap);
  }
  await Promise.all(inFlight);
  return { next, startedAtMs: started, done: !left() };
}
