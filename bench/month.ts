/**
 * A production month: runs drawn from the production size distribution (stratified, so 1,067
 * runs reach its top), at full byte size and production limits, judged like any scenario.
 * Each run's executions are deleted from the server once judged, so the server holds only the
 * runs in flight. Reports the wall time and the input tokens with compaction (what the runs
 * sent) and without it (the plans, append-only), next to production's measured total.
 */
import { loadavg } from 'node:os';
import { resolveShape } from '../mocks/index.ts';
import type { RunRecord } from '../src/result/index.ts';
import { runScenario } from '../src/runner/run-scenario.ts';
import type { Scenario } from '../src/scenario/index.ts';
import { withBenchEnvironment } from './bench-environment.ts';
import { benchPlan, benchScenario } from './bench-scenario.ts';
import { bottleneckOf, type Meter, metered } from './meter.ts';
import type { Bottleneck } from './stats.ts';
import { appendOnlyRequestBytes, compactionRequestBytes, tokensOf } from './token-accounting.ts';

/** Input tokens of the 1,067 production runs measured in 2026-11 (docs/spec/compaction.md). */
export const PRODUCTION_INPUT_TOKENS = 1.76e9;
export const PRODUCTION_RUNS = 1067;
const AGENT_MODEL = 'longrun-agent';
const COMPACTION_MODEL = 'longrun-compactor';

export interface MonthResult {
  /** Stopped before every run was made (the counts and tokens are those of the runs made). */
  partial: boolean;
  /** The month's wall time, seconds (the stable key; `meter.wallMs` is the same). */
  wallSeconds: number;
  runs: number;
  runsCompleted: number;
  concurrency: number;
  bytesPerTurn: number;
  passed: boolean;
  runsWithViolations: number;
  /** The first runs that failed a check: run, how it ended, the check and its first evidence line. */
  violations?: string[];
  turns: number;
  compactions: number;
  continuedAsNew: number;
  historyBytes: number;
  /** Input tokens of the completed runs (a stopped run's plan was not played to its end). */
  tokens: {
    /** Agent requests the mocks answered, / BYTES_PER_TOKEN. */
    agentWithCompaction: number;
    /** Compaction model requests, / BYTES_PER_TOKEN. */
    compaction: number;
    /** The same plans sent append-only. */
    withoutCompaction: number;
    /** Production's total, scaled to this many runs. */
    production: number;
  };
  load: { atStart: number; max: number; mean: number; atEnd: number };
  meter: Meter;
  bottleneck: Bottleneck;
}

export interface MonthOptions {
  runs: number;
  concurrency: number;
  /** The shape's context bytes per turn. */
  bytesPerTurn: number;
  /** Stops the month: the runs in flight are stopped and judged, the result is partial. */
  signal?: AbortSignal;
}

/** The month's scenario: its plans are the same for longrun and for the peer (bench/month-peer.ts). */
export function monthScenario(options: Pick<MonthOptions, 'runs' | 'concurrency' | 'bytesPerTurn'>): Scenario {
  return benchScenario({
    name: 'bench-month',
    seed: PRODUCTION_RUNS,
    count: options.runs,
    concurrency: options.concurrency,
    bytesPerTurn: options.bytesPerTurn,
    timeout: '30m',
  });
}

export async function measureMonth(options: MonthOptions, log: (line: string) => void): Promise<MonthResult> {
  const scenario = monthScenario(options);
  const plannedBytes = Array.from({ length: options.runs }, (_, i) => appendOnlyRequestBytes(benchPlan(scenario, i), AGENT_MODEL));
  const loads: number[] = [];
  const sampleLoad = () => loads.push(loadavg()[0] ?? 0);
  sampleLoad();
  const loadTimer = setInterval(sampleLoad, 10_000);
  const compactionBytes = new Map<string, number>();
  const { value: summary, meter } = await withBenchEnvironment(
    ({ env, serverPid }) =>
      metered(serverPid, () =>
        runScenario(scenario, {
          environment: env,
          ...(options.signal ? { signal: options.signal } : {}),
          progressEveryMs: 30_000,
          onProgress: (p) =>
            log(
              `month: ${p.runsDone}/${p.runsTotal ?? '?'} runs, ${p.turns} turns, ${(p.bytes / 1e9).toFixed(2)} GB sent, ${Math.round(p.elapsedMs / 1000)} s`,
            ),
          onHistories: async (record, fetchHistories) => {
            // A second fetch of the histories, so only for the few runs that compacted at all.
            if (record.compactions.length > 0) {
              compactionBytes.set(
                record.runId,
                (await fetchHistories()).reduce((n, history) => n + compactionRequestBytes(history, COMPACTION_MODEL), 0),
              );
            }
            await Promise.all(
              record.executions.map((e) =>
                env.client.workflowService
                  .deleteWorkflowExecution({
                    namespace: env.namespace,
                    workflowExecution: { workflowId: record.workflowId, runId: e.temporalRunId },
                  })
                  .catch(() => {}),
              ),
            );
          },
        }).finally(() => clearInterval(loadTimer)),
      ),
    { onDisk: true },
  );
  sampleLoad();
  const completed = summary.runs.filter((r) => r.outcome === 'completed');
  const sum = (bytes: (run: RunRecord) => number) => tokensOf(completed.reduce((n, run) => n + bytes(run), 0));
  return {
    partial: summary.partial,
    wallSeconds: meter.wallMs / 1000,
    runs: summary.runs.length,
    runsCompleted: completed.length,
    concurrency: options.concurrency,
    bytesPerTurn: resolveShape(scenario.shape).turns.bytesPerTurn,
    passed: summary.passed,
    runsWithViolations: summary.runs.filter((r) => r.invariants.some((i) => i.status === 'fail')).length,
    violations: violationLines(summary.runs, VIOLATIONS_SHOWN),
    turns: summary.totals.turns,
    compactions: summary.runs.reduce((n, r) => n + r.compactions.filter((c) => c.ok).length, 0),
    continuedAsNew: summary.runs.reduce((n, r) => n + r.executions.filter((e) => e.closedBy === 'continued-as-new').length, 0),
    historyBytes: summary.runs.reduce((n, r) => n + r.executions.reduce((m, e) => m + e.historyBytes, 0), 0),
    tokens: {
      agentWithCompaction: sum((run) => run.turns.reduce((n, t) => n + t.requestBytes, 0)),
      compaction: sum((run) => compactionBytes.get(run.runId) ?? 0),
      withoutCompaction: sum((run) => plannedBytes[runIndex(run.runId)] ?? 0),
      production: (PRODUCTION_INPUT_TOKENS * completed.length) / PRODUCTION_RUNS,
    },
    load: {
      atStart: loads[0] ?? 0,
      max: Math.max(...loads),
      mean: loads.reduce((a, b) => a + b, 0) / loads.length,
      atEnd: loads.at(-1) ?? 0,
    },
    meter,
    bottleneck: bottleneckOf(meter),
  };
}

const VIOLATIONS_SHOWN = 20;

/** One line per failed check of the first `max` runs that failed one. */
export function violationLines(runs: readonly Pick<RunRecord, 'runId' | 'outcome' | 'invariants'>[], max: number): string[] {
  return runs
    .filter((run) => run.invariants.some((i) => i.status === 'fail'))
    .slice(0, max)
    .flatMap((run) =>
      run.invariants
        .filter((i) => i.status === 'fail')
        .map((i) => `${run.runId} (${run.outcome}): ${i.id}: ${i.evidence[0]?.split('\n')[0] ?? 'no evidence'}`),
    );
}

/** The plan index in a run id: `bench-month-run-0042` -> 42. */
function runIndex(runId: string): number {
  return Number(/(\d+)$/.exec(runId)?.[1] ?? Number.NaN);
}
