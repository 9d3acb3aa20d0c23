/**
 * Launches runs as a scenario says, closed model (N at once) or open model (an arrival rate, or
 * a ramp of rates), by count or for a duration, and never past an abort: bounded in count and in time.
 */

import { arrivalSchedule } from '../load/index.ts';
import { type Ramp, rampOf } from '../scenario/index.ts';
import { durationMs, type Scenario } from '../scenario/scenario-schema.ts';
import { sleep } from '../shared/sleep.ts';

export interface DriveOptions {
  /** Runs to start at most (ignored when `durationMs` is set). */
  count: number;
  /** Closed model: runs in flight at once. */
  concurrency: number;
  /** Open model: runs started per second (then `concurrency` caps runs in flight). */
  arrivalRate?: number;
  /** Keep starting runs for this long. */
  durationMs?: number;
  /** Open model on a ramp: run n starts at the ramp's n-th arrival (then count and duration are the ramp's). */
  ramp?: Ramp;
  signal: AbortSignal;
}

/** How a scenario launches each binary's runs; `durationOverrideMs` (the `soak --duration` flag) over its `runs.duration`. */
export function driveOptionsOf(scenario: Scenario, signal: AbortSignal, durationOverrideMs?: number): DriveOptions {
  const { runs } = scenario;
  const duration = durationOverrideMs ?? (runs.duration !== undefined ? durationMs(runs.duration) : undefined);
  return {
    count: runs.count,
    concurrency: runs.concurrency,
    ...(runs.arrivalRate ? { arrivalRate: runs.arrivalRate } : {}),
    ...(duration !== undefined ? { durationMs: duration } : {}),
    ...(runs.ramp ? { ramp: rampOf(runs.ramp, durationMs) } : {}),
    signal,
  };
}

/** Calls `runOne(index)` for index 0, 1, ... as the model allows; resolves when all have finished. */
export async function drive(options: DriveOptions, runOne: (index: number) => Promise<void>): Promise<number> {
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();
  let next = 0;
  const schedule = options.ramp ? arrivalSchedule(options.ramp) : undefined;
  const more = () =>
    !options.signal.aborted &&
    (schedule
      ? schedule.offsetMs(next) !== undefined
      : options.durationMs !== undefined
        ? Date.now() - started < options.durationMs
        : next < options.count);
  const gap = !schedule && options.arrivalRate ? 1000 / options.arrivalRate : 0;
  while (more()) {
    if (inFlight.size >= options.concurrency) {
      await Promise.race(inFlight);
      continue;
    }
    const due = schedule ? (schedule.offsetMs(next) as number) - (Date.now() - started) : 0;
    if (due > 0) {
      await sleep(due, options.signal);
      continue;
    }
    const index = next++;
    const run = runOne(index).finally(() => inFlight.delete(run));
    inFlight.add(run);
    if (gap > 0) await sleep(gap, options.signal);
  }
  await Promise.all(inFlight);
  return next;
}
