/**
 * What a load or soak run measured: throughput and turn latency (overall, per run and per ramp
 * stage) from the run records, and memory and CPU of the worker and the server over time from
 * the sampler's series. Plain JSON, for summary.json and the report.
 */
import type { RunRecord } from '../report/summary.ts';
import { percentile } from '../shared/percentile.ts';
import { leastSquaresSlope } from './least-squares.ts';
import type { ProcessUsage } from './process-usage.ts';
import { arrivalSchedule, type Ramp } from './ramp.ts';

const MIB = 1024 * 1024;
const HOUR_MS = 3_600_000;

/** Progress counters of the runner at a sample (its Progress has these fields). */
export interface LoadCounters {
  runsStarted: number;
  runsDone: number;
  /** Turns completed so far (agent model calls answered). */
  turns: number;
}

export interface ResourceSample {
  /** Ms since the sampler started. */
  atMs: number;
  /** The kernel workers' process: this one, or the first queue's workflow worker under chaos. */
  worker: ProcessUsage;
  /** Absent when no server process was found at this sample (an existing cluster, a restart). */
  server?: ProcessUsage;
  counters?: LoadCounters;
}

/** Turn latency percentiles (call_model scheduled to completed), ms. */
export interface LatencyPercentiles {
  p50: number;
  p95: number;
  p99: number;
}

export interface RunLoad {
  workflowId: string;
  binary: string;
  /** When the run started, ms after the sampler started. */
  startedAtMs: number;
  durationMs: number;
  turns: number;
  turnsPerSecond: number;
  /** Serialized history of every execution of the run. */
  historyBytes: number;
  historyBytesPerSecond: number;
  latencyMs: LatencyPercentiles;
}

export interface ProcessMetrics {
  samples: number;
  /** Every process seen, in order: more than one means it was restarted. */
  pids: number[];
  rssBytes: { first: number; last: number; max: number };
  /**
   * Least-squares slope of RSS over time, MiB per hour, on the longest stretch of one process
   * (a restart resets memory) after the warm-up; absent with fewer than two such samples.
   */
  rssGrowthMbPerHour?: number;
  /** CPU time over wall time, percent of one core: over the window, and the busiest interval. */
  cpuPercent?: { mean: number; max: number };
}

export interface StageLoad {
  stage: number;
  fromMs: number;
  toMs: number;
  /** The ramp's arrival rate at the stage's start and end, runs per second. */
  rate: { from: number; to: number };
  runsStarted: number;
  runsStartedPerSecond: number;
  /** Turns completed during the stage per second (from the runner's counters, when given). */
  turnsPerSecond?: number;
  /** Turn latency of the runs started in the stage. */
  latencyMs: LatencyPercentiles;
}

export interface LoadMetrics {
  /** From the sampler's start to its stop, ms: the denominator of every overall rate. */
  windowMs: number;
  /** Samples before this (ms after the start) are left out of the RSS slopes. */
  warmupMs: number;
  overall: {
    runs: number;
    turns: number;
    runsPerSecond: number;
    turnsPerSecond: number;
    historyBytes: number;
    historyBytesPerSecond: number;
    latencyMs: LatencyPercentiles;
  };
  runs: RunLoad[];
  worker: ProcessMetrics;
  server?: ProcessMetrics;
  /** One entry per ramp stage, when the runs were started on a ramp. */
  stages?: StageLoad[];
  samples: ResourceSample[];
}

export interface LoadMetricsInput {
  /** Epoch ms of the sampler's start: run start times are placed against it. */
  startedAt: number;
  windowMs: number;
  runs: readonly RunRecord[];
  samples: readonly ResourceSample[];
  ramp?: Ramp;
  /** Leaves the first samples (start-up, JIT, caches filling) out of the RSS slopes; default 0. */
  warmupMs?: number;
}

export function computeLoadMetrics(input: LoadMetricsInput): LoadMetrics {
  const runs = input.runs.map((run) => runLoad(run, input.startedAt));
  const turns = runs.reduce((n, r) => n + r.turns, 0);
  const historyBytes = runs.reduce((n, r) => n + r.historyBytes, 0);
  const seconds = input.windowMs / 1000;
  const warmupMs = input.warmupMs ?? 0;
  const worker = processMetrics(
    input.samples.map((s) => ({ atMs: s.atMs, usage: s.worker })),
    warmupMs,
  );
  if (!worker) throw new Error('computeLoadMetrics: samples is empty; the sampler takes one at start and one at stop');
  const server = processMetrics(
    input.samples.flatMap((s) => (s.server ? [{ atMs: s.atMs, usage: s.server }] : [])),
    warmupMs,
  );
  return {
    windowMs: input.windowMs,
    warmupMs,
    overall: {
      runs: runs.length,
      turns,
      runsPerSecond: perSecond(runs.length, seconds),
      turnsPerSecond: perSecond(turns, seconds),
      historyBytes,
      historyBytesPerSecond: perSecond(historyBytes, seconds),
      latencyMs: latencyOf(input.runs),
    },
    runs,
    worker,
    ...(server ? { server } : {}),
    ...(input.ramp ? { stages: stageLoads(input.ramp, input.runs, runs, input.samples) } : {}),
    samples: [...input.samples],
  };
}

function perSecond(amount: number, seconds: number): number {
  return seconds > 0 ? amount / seconds : 0;
}

function latencyOf(runs: readonly RunRecord[]): LatencyPercentiles {
  const latencies = runs.flatMap((r) => r.turns.flatMap((t) => (t.latencyMs !== undefined ? [t.latencyMs] : [])));
  return { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), p99: percentile(latencies, 0.99) };
}

function runLoad(run: RunRecord, startedAt: number): RunLoad {
  const historyBytes = run.executions.reduce((n, e) => n + e.historyBytes, 0);
  const seconds = run.durationMs / 1000;
  return {
    workflowId: run.workflowId,
    binary: run.binary,
    startedAtMs: Date.parse(run.startedAt) - startedAt,
    durationMs: run.durationMs,
    turns: run.turns.length,
    turnsPerSecond: perSecond(run.turns.length, seconds),
    historyBytes,
    historyBytesPerSecond: perSecond(historyBytes, seconds),
    latencyMs: latencyOf([run]),
  };
}

interface Reading {
  atMs: number;
  usage: ProcessUsage;
}

/** Consecutive readings of one process. */
function stretches(readings: readonly Reading[]): Reading[][] {
  const out: Reading[][] = [];
  for (const reading of readings) {
    const last = out.at(-1);
    if (last && last[0]?.usage.pid === reading.usage.pid) last.push(reading);
    else out.push([reading]);
  }
  return out;
}

function processMetrics(readings: readonly Reading[], warmupMs: number): ProcessMetrics | undefined {
  const first = readings[0];
  const last = readings.at(-1);
  if (!first || !last) return undefined;
  const runs = stretches(readings);
  const span = (s: Reading[]) => (s.at(-1)?.atMs ?? 0) - (s[0]?.atMs ?? 0);
  const warm = runs.map((stretch) => stretch.filter((r) => r.atMs >= warmupMs)).filter((stretch) => stretch.length > 0);
  const longest = warm.reduce<Reading[]>((a, b) => (span(b) > span(a) ? b : a), []);
  const slope = leastSquaresSlope(longest.map((r) => ({ x: r.atMs, y: r.usage.rssBytes })));
  let cpu = 0;
  let wall = 0;
  let busiest = 0;
  for (const stretch of runs) {
    for (let i = 1; i < stretch.length; i++) {
      const [a, b] = [stretch[i - 1] as Reading, stretch[i] as Reading];
      const dt = (b.atMs - a.atMs) / 1000;
      if (dt <= 0) continue;
      const used = b.usage.cpuSeconds - a.usage.cpuSeconds;
      cpu += used;
      wall += dt;
      busiest = Math.max(busiest, used / dt);
    }
  }
  return {
    samples: readings.length,
    pids: runs.map((s) => s[0]?.usage.pid as number).filter((pid, i, all) => all.indexOf(pid) === i),
    rssBytes: { first: first.usage.rssBytes, last: last.usage.rssBytes, max: Math.max(...readings.map((r) => r.usage.rssBytes)) },
    ...(slope !== undefined ? { rssGrowthMbPerHour: (slope * HOUR_MS) / MIB } : {}),
    ...(wall > 0 ? { cpuPercent: { mean: (100 * cpu) / wall, max: 100 * busiest } } : {}),
  };
}

function stageLoads(ramp: Ramp, records: readonly RunRecord[], runs: readonly RunLoad[], samples: readonly ResourceSample[]): StageLoad[] {
  const schedule = arrivalSchedule(ramp);
  let fromMs = 0;
  return ramp.stages.map((stage, index) => {
    const toMs = fromMs + stage.durationMs;
    const inStage = records.filter((_, i) => schedule.stageAt(runs[i]?.startedAtMs ?? -1) === index);
    const turnsPerSecond = countersRate(samples, fromMs, toMs);
    const load: StageLoad = {
      stage: index,
      fromMs,
      toMs,
      rate: { from: schedule.rateAt(fromMs), to: stage.target },
      runsStarted: inStage.length,
      runsStartedPerSecond: perSecond(inStage.length, stage.durationMs / 1000),
      ...(turnsPerSecond !== undefined ? { turnsPerSecond } : {}),
      latencyMs: latencyOf(inStage),
    };
    fromMs = toMs;
    return load;
  });
}

/** Turns per second between the last samples with counters at or before `fromMs` and `toMs`. */
function countersRate(samples: readonly ResourceSample[], fromMs: number, toMs: number): number | undefined {
  const withCounters = samples.filter((s) => s.counters);
  const at = (ms: number) => withCounters.filter((s) => s.atMs <= ms).at(-1);
  const [a, b] = [at(fromMs), at(toMs)];
  if (!a?.counters || !b?.counters || b.atMs <= a.atMs) return undefined;
  return (b.counters.turns - a.counters.turns) / ((b.atMs - a.atMs) / 1000);
}
