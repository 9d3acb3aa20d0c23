/**
 * Scale: one max-size run (730k tokens) end to end at production limits: the real 128 MiB
 * ContinueAsNew budget, the 500 MiB history limit and the 2 MiB blob limit of the production
 * dynamic config. Its first execution is one full ContinueAsNew cycle. The kernel's workers run
 * in processes of their own (`workersApart`), as a deployed worker does, so that the worker's
 * peak memory is its own and not longrun's: the mocks, the judging and the replay stay here.
 */
import { CONTINUE_AS_NEW_BYTES } from '../src/contract/limits.ts';
import type { ExecutionRecord } from '../src/result/index.ts';
import { runScenario } from '../src/runner/run-scenario.ts';
import { withBenchEnvironment } from './bench-environment.ts';
import { benchScenario } from './bench-scenario.ts';
import { bottleneckOf, type Meter, metered } from './meter.ts';
import { type ProcessPeak, ProcessPeaks } from './proc-stat.ts';
import type { Bottleneck } from './stats.ts';
import { RUN_SIZES } from './throughput.ts';

/** The peaks a max-size run is held to (MB as formatBytes prints them: 10^6 bytes). */
export const SCALE_TARGETS = { workerPeakRssBytes: 350e6, longrunPeakRssBytes: 400e6 } as const;

export interface ScaleResult {
  targetTokens: number;
  passed: boolean;
  turns: number;
  requestBytes: number;
  largestRequestBytes: number;
  compactions: number;
  executions: Pick<ExecutionRecord, 'historyBytes' | 'events' | 'closedBy'>[];
  /** The first execution closed by ContinueAsNew: a full cycle at the real budget. */
  fullCycle: { historyBytes: number; turns: number; budgetBytes: number } | null;
  /** The kernel worker's processes (its workflows', its activities'), each with its peak RSS. */
  workerProcesses: ProcessPeak[];
  /** The worker's peak: the sum of its processes' peaks (an upper bound on them together). */
  workerPeakRssBytes: number;
  /** longrun's own process (the mocks, the runner, the judging, the replay): `meter.selfPeakRssBytes`. */
  longrunPeakRssBytes: number;
  meter: Meter;
  bottleneck: Bottleneck;
}

export async function measureScale(): Promise<ScaleResult> {
  const scenario = benchScenario({ name: 'bench-scale', seed: 1, count: 1, concurrency: 1, targetTokens: RUN_SIZES.max });
  const workers = new ProcessPeaks();
  const { value: summary, meter } = await withBenchEnvironment(({ env, serverPid }) =>
    metered(serverPid, () =>
      runScenario(scenario, {
        environment: env,
        workersApart: true,
        onChaosEvent: (event) => event.type === 'process' && workers.add(event.pid, event.what),
      }),
    ),
  ).finally(() => workers.stop());
  const workerProcesses = workers.processes;
  if (workerProcesses.length === 0) throw new Error('scale: no worker process was started apart');
  const run = summary.runs[0];
  if (!run) throw new Error('scale: the max-size run did not start');
  const cycle = run.executions.findIndex((e) => e.closedBy === 'continued-as-new');
  return {
    targetTokens: RUN_SIZES.max,
    passed: summary.passed,
    turns: run.turns.length,
    requestBytes: summary.totals.requestBytes,
    largestRequestBytes: Math.max(0, ...run.turns.map((t) => t.requestBytes)),
    compactions: run.compactions.filter((c) => c.ok).length,
    executions: run.executions.map(({ historyBytes, events, closedBy }) => ({ historyBytes, events, closedBy })),
    fullCycle:
      cycle < 0
        ? null
        : {
            historyBytes: run.executions[cycle]?.historyBytes ?? 0,
            turns: run.turns.filter((t) => t.execution === cycle + 1).length,
            budgetBytes: CONTINUE_AS_NEW_BYTES,
          },
    workerProcesses,
    workerPeakRssBytes: workerProcesses.reduce((n, p) => n + p.peakRssBytes, 0),
    longrunPeakRssBytes: meter.selfPeakRssBytes,
    meter,
    bottleneck: bottleneckOf(meter),
  };
}
