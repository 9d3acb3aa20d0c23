/**
 * What a load or soak run measured (`summary.load`): throughput and turn latency overall, per
 * run and per ramp stage, and memory and CPU of the worker, the server and (on PostgreSQL) the
 * database over time. The
 * schema is the definition; the types are inferred from it. src/load computes it.
 */
import { z } from 'zod';
import { binaryNameSchema } from './ids.ts';

const count = z.number().int().nonnegative();
// Rates and times: any finite number (a slope may be negative; JSON has no NaN).
const rate = z.number();

/** Turn latency percentiles (call_model scheduled to completed), ms. */
export const latencyPercentilesSchema = z.object({ p50: rate, p95: rate, p99: rate });
export type LatencyPercentiles = z.infer<typeof latencyPercentilesSchema>;

/** One reading of a process: resident memory and CPU time. */
export const processUsageSchema = z.object({
  pid: z.number().int(),
  rssBytes: count,
  /** User plus system CPU time since the process started, seconds. */
  cpuSeconds: rate,
});
export type ProcessUsage = z.infer<typeof processUsageSchema>;

/** Progress counters of the runner at a sample (its Progress has these fields). */
export const loadCountersSchema = z.object({
  runsStarted: count,
  runsDone: count,
  /** Turns completed so far (agent model calls answered). */
  turns: count,
});
export type LoadCounters = z.infer<typeof loadCountersSchema>;

export const resourceSampleSchema = z.object({
  /** Ms since the sampler started. */
  atMs: rate,
  /** The kernel workers' process: this one, or the first queue's workflow worker under chaos. */
  worker: processUsageSchema,
  /**
   * Absent when no server process was found at this sample (an existing cluster, a restart), and
   * on server.topology services, whose processes are read one by one in `services`.
   */
  server: processUsageSchema.optional(),
  /** server.topology services: each service's process found at this sample, by service name (frontend, history, matching, worker). */
  services: z.record(z.string(), processUsageSchema).optional(),
  /**
   * The server's PostgreSQL (server.persistence postgres): the postmaster (its pid) and every
   * process it started, CPU summed, and as rssBytes their proportional set sizes summed (the
   * shared buffers count once). Absent on SQLite and while PostgreSQL is down.
   */
  database: processUsageSchema.optional(),
  counters: loadCountersSchema.optional(),
});
export type ResourceSample = z.infer<typeof resourceSampleSchema>;

export const runLoadSchema = z.object({
  workflowId: z.string(),
  binary: binaryNameSchema,
  /** When the run started, ms after the sampler started (negative: before it). */
  startedAtMs: z.number(),
  durationMs: rate,
  turns: count,
  turnsPerSecond: rate,
  /** Serialized history of every execution of the run. */
  historyBytes: count,
  historyBytesPerSecond: rate,
  latencyMs: latencyPercentilesSchema,
});
export type RunLoad = z.infer<typeof runLoadSchema>;

export const processMetricsSchema = z.object({
  samples: count,
  /**
   * Every process seen, in order: more than one means it was restarted. The server run as one
   * process per service (`services` below): every service's processes, in the order first seen.
   */
  pids: z.array(z.number().int()),
  rssBytes: z.object({ first: count, last: count, max: count }),
  /**
   * Least-squares slope of RSS over time, MiB per hour, on the longest stretch of one process
   * (a restart resets memory) after its warm-up (from its first sample), up to the last run's
   * start; absent with fewer than two such samples.
   */
  rssGrowthMbPerHour: z.number().optional(),
  /** How long the samples that slope was fitted on span, ms: a slope over seconds says little. */
  rssGrowthSpanMs: rate.optional(),
  /** CPU time over wall time, percent of one core: over the window, and the busiest interval. */
  cpuPercent: z.object({ mean: rate, max: rate }).optional(),
});
export type ProcessMetrics = z.infer<typeof processMetricsSchema>;

export const stageLoadSchema = z.object({
  stage: z.number().int(),
  fromMs: rate,
  toMs: rate,
  /** The ramp's arrival rate at the stage's start and end, runs per second. */
  rate: z.object({ from: rate, to: rate }),
  runsStarted: count,
  runsStartedPerSecond: rate,
  /** Turns completed during the stage per second (from the runner's counters, when given). */
  turnsPerSecond: rate.optional(),
  /** Turn latency of the runs started in the stage. */
  latencyMs: latencyPercentilesSchema,
});
export type StageLoad = z.infer<typeof stageLoadSchema>;

export const loadMetricsSchema = z.object({
  /** From the sampler's start to its stop, ms: the denominator of every overall rate. */
  windowMs: rate,
  /** Samples before this (ms after the start) are left out of the RSS slopes. */
  warmupMs: rate,
  overall: z.object({
    runs: count,
    turns: count,
    runsPerSecond: rate,
    turnsPerSecond: rate,
    historyBytes: count,
    historyBytesPerSecond: rate,
    latencyMs: latencyPercentilesSchema,
  }),
  runs: z.array(runLoadSchema),
  worker: processMetricsSchema,
  /**
   * The Temporal server. On server.topology services, its four processes together: memory and CPU
   * summed at the samples that found every service, the RSS slope the sum of each service's
   * slope (absent unless each has one, `rssGrowthSpanMs` the shortest of theirs), mean CPU the
   * sum of each service's mean.
   */
  server: processMetricsSchema.optional(),
  /** server.topology services: each service's process(es) on its own, by service name; the parts of `server`. */
  services: z.record(z.string(), processMetricsSchema).optional(),
  /** The server's PostgreSQL, all its processes together (server.persistence postgres only; memory as PSS, see database above). */
  database: processMetricsSchema.optional(),
  /**
   * The scenario's External Storage (a binary in play offloads): what its bucket held once the
   * runs were over, every object the runs stored (the S3 driver never deletes one).
   */
  store: z.object({ objects: count, bytes: count }).optional(),
  /** One entry per ramp stage, when the runs were started on a ramp. */
  stages: z.array(stageLoadSchema).optional(),
  samples: z.array(resourceSampleSchema),
});
export type LoadMetrics = z.infer<typeof loadMetricsSchema>;
