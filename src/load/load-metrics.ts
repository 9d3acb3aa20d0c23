/**
 * Computes what a load or soak run measured (the result model's LoadMetrics): throughput and
 * turn latency (overall, per run and per ramp stage) from the run records, and memory and CPU
 * of the worker, the server (and each of its services, run as processes of their own) and its
 * database over time from the sampler's series.
 */
import type { LatencyPercentiles, LoadMetrics, ResourceSample, RunLoad, RunRecord, StageLoad } from '../result/index.ts';
import type { Ramp } from '../scenario/soak-schema.ts';
import { percentile } from '../shared/percentile.ts';
import { processMetrics } from './process-metrics.ts';
import { arrivalSchedule } from './ramp.ts';
import { serviceMetrics } from './service-metrics.ts';

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
  // The server run as one process per service is sampled service by service; `server` is their sum.
  const perService = serviceMetrics(input.samples, slopeWindow);
  const server = perService ? perService.server : seriesOf('server');
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
    ...(perService ? { services: perService.services } : {}),
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
