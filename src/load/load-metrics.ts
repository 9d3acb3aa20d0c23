/**
 * Computes what a load or soak run measured (the result model's LoadMetrics): throughput and
 * turn latency (overall, per run and per ramp stage) from the run records, and memory and CPU
 * of the worker, the server and its database over time from the sampler's series.
 */
import type {
  LatencyPercentiles,
  LoadMetrics,
  ProcessMetrics,
  ProcessUsage,
  ResourceSample,
  RunLoad,
  RunRecord,
  StageLoad,
} from '../result/index.ts';
import type { Ramp } from '../scenario/soak-schema.ts';
import { percentile } from '../shared/percentile.ts';
import { leastSquaresSlope } from './least-squares.ts';
import { arrivalSchedule } from './ramp.ts';

const MIB = 1024 * 1024;
const HOUR_MS = 3_600_000;

export interface LoadMetricsInput {
  /** Epoch ms of the sampler's start: run start times are placed against it. */
  startedAt: number;
  windowMs: number;
  runs: readonly RunRecord[];
  samples: readonly ResourceSample[];
  ramp?: Ramp;
  /** Leaves each process's first samples (start-up, JIT, caches filling) out of the RSS slopes; default 0. */
  warmupMs?: number;
}

export function computeLoadMetrics(input: LoadMetricsInput): LoadMetrics {
  const runs = input.runs.map((run) => runLoad(run, input.startedAt));
  const turns = runs.reduce((n, r) => n + r.turns, 0);
  const historyBytes = runs.reduce((n, r) => n + r.historyBytes, 0);
  const seconds = input.windowMs / 1000;
  const warmupMs = input.warmupMs ?? 0;
  // After the last run's start, runs only finish: the drain frees memory, and a slope over it
  // would hide growth.
  const slopeWindow = { warmupMs, untilMs: runs.length > 0 ? Math.max(...runs.map((r) => r.startedAtMs)) : Number.POSITIVE_INFINITY };
  const worker = processMetrics(
    input.samples.map((s) => ({ atMs: s.atMs, usage: s.worker })),
    slopeWindow,
  );
  if (!worker) throw new Error('computeLoadMetrics: samples is empty; the sampler takes one at start and one at stop');
  const seriesOf = (part: 'server' | 'database') =>
    processMetrics(
      input.samples.flatMap((s) => {
        const usage = s[part];
        return usage ? [{ atMs: s.atMs, usage }] : [];
      }),
      slopeWindow,
    );
  const server = seriesOf('server');
  const database = seriesOf('database');
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
    ...(database ? { database } : {}),
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

function processMetrics(readings: readonly Reading[], slopeWindow: { warmupMs: number; untilMs: number }): ProcessMetrics | undefined {
  const first = readings[0];
  const last = readings.at(-1);
  if (!first || !last) return undefined;
  const runs = stretches(readings);
  const span = (s: Reading[]) => (s.at(-1)?.atMs ?? 0) - (s[0]?.atMs ?? 0);
  // Each process warms up from its own first sample: a replacement's start-up (its caches
  // filling again, by replay) is no more a leak than the first process's.
  const warm = runs
    .map((stretch) => stretch.filter((r) => r.atMs >= (stretch[0]?.atMs ?? 0) + slopeWindow.warmupMs && r.atMs <= slopeWindow.untilMs))
    .filter((stretch) => stretch.length > 0);
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
    ...(slope !== undefined ? { rssGrowthMbPerHour: (slope * HOUR_MS) / MIB, rssGrowthSpanMs: span(longest) } : {}),
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
