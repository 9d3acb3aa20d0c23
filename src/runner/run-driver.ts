/**
 * Launches runs as a scenario says, closed model (N at once) or open model (an arrival rate, or
 * a ramp of rates), by count or for a duration, and never past an abort: bounded in count and in time.
 */

import { arrivalSchedule } from '../load/index.ts';
import { type Ramp, rampOf } from '../scenario/index.ts';
import { durationMs, type Scenario } from '../scenario/scenario-schema.ts';
import { type Arrivals, arrive } from '../shared/arrival-loop.ts';
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
export function drive(options: DriveOptions, runOne: (index: number) => Promise<void>): Promise<number> {
  const clock = { now: () => Date.now(), sleep: (ms: number) => sleep(ms, options.signal), stopped: () => options.signal.aborted };
  return arrive(arrivalsOf(options), clock, runOne).then(({ next }) => next);
}

/** The arrivals `options` ask for, a ramp's as its offsets. */
export function arrivalsOf(options: Omit<DriveOptions, 'signal'>): Arrivals {
  const schedule = options.ramp ? arrivalSchedule(options.ramp) : undefined;
  return {
    count: options.count,
    concurrency: options.concurrency,
    ...(options.arrivalRate ? { arrivalRate: options.arrivalRate } : {}),
    ...(options.durationMs !== undefined ? { durationMs: options.durationMs } : {}),
    ...(schedule ? { offsetMs: (index: number) => schedule.offsetMs(index) } : {}),
  };
}
