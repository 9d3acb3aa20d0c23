/**
 * The scenario fields of load and soak runs, for scenario-schema.ts to plug in:
 *   runs: { ..., ramp: rampSchemaWith(durationSchema).optional() }   (instead of arrivalRate)
 *   soak: soakSchemaWith(durationSchema).optional()                    (at the top level)
 * Both take the scenario's duration schema as an argument rather than importing it, so that
 * scenario-schema.ts can import this file without an import cycle. src/load computes the
 * ramp's schedule and judges the thresholds.
 */
import { z } from 'zod';

const rate = z.number().nonnegative().describe('runs started per second');

export function rampSchemaWith<Duration extends z.ZodType<string | number>>(duration: Duration) {
  return z
    .strictObject({
      startRate: rate.default(0),
      stages: z
        .array(
          z.strictObject({
            duration,
            /** Runs per second at the end of the stage, reached linearly from the rate before it. */
            target: rate,
          }),
        )
        .min(1),
    })
    .describe(
      'Open model on a ramp, as k6 ramping-arrival-rate: from startRate, each stage moves the arrival rate linearly to its target over its duration; the ramp replaces arrivalRate and duration',
    );
}

const rssGrowth = z.number().nonnegative().describe('MiB per hour, least-squares slope of RSS over the soak');

export function soakSchemaWith<Duration extends z.ZodType<string | number>>(duration: Duration) {
  return z
    .strictObject({
      /** Turns completed per second over the whole soak, at least. */
      minTurnsPerSecond: z.number().positive().optional(),
      /** p99 of turn latency (call_model scheduled to completed), at most, ms. */
      maxP99LatencyMs: z.number().positive().optional(),
      /** RSS growth per hour, at most: one number for the worker and the server, or each. */
      maxRssGrowthMbPerHour: z
        .union([rssGrowth, z.strictObject({ worker: rssGrowth.optional(), server: rssGrowth.optional() })])
        .optional(),
      /** Start-up (JIT, caches, connection pools) left out of the RSS growth slopes. */
      warmup: duration.optional(),
    })
    .describe('Soak thresholds: each stated one becomes an expectation of the run (turns/s, p99 latency, RSS growth after the warm-up)');
}

export type SoakThresholds = z.infer<ReturnType<typeof soakSchemaWith<z.ZodType<string | number>>>>;

export interface RampStage {
  durationMs: number;
  /** Runs per second at the end of the stage. */
  target: number;
}

/** A parsed ramp (durations in ms). */
export interface Ramp {
  /** Runs per second at the start of the first stage. */
  startRate: number;
  stages: RampStage[];
}

export interface RampInput<Duration = string | number> {
  startRate: number;
  stages: { duration: Duration; target: number }[];
}

/** A parsed ramp with its durations in ms (the scenario's durationMs), for arrivalSchedule() and the sampler. */
export function rampOf<Duration>(input: RampInput<Duration>, toMs: (duration: Duration) => number): Ramp {
  return {
    startRate: input.startRate,
    stages: input.stages.map((stage) => ({ durationMs: toMs(stage.duration), target: stage.target })),
  };
}
