/**
 * Throughput: turns per second and history MB per second with 1, 4 and 16 runs at once, for
 * p50-sized and max-sized runs, with the CPU of the server and of this process as evidence of
 * what limits it. A configuration that outlasts the window is stopped (runScenario's abort):
 * its turns and history up to then count, over the whole wall time including judging.
 * Max-size runs are measured on the peer too (the kernel's workflow bare, each run's history then
 * replayed by the SDK alone; a run still going at the window is terminated, then replayed), on the
 * same plans: what the SDK alone moves, the floor of longrun's share of the server's ceiling.
 */

import { runScenario } from '../src/runner/run-scenario.ts';
import type { Scenario } from '../src/scenario/index.ts';
import { prepareRuns } from './baseline/index.ts';
import { runPeerSide } from './baseline/peer-side.ts';
import { withBenchEnvironment } from './bench-environment.ts';
import { benchPlan, benchScenario } from './bench-scenario.ts';
import { bottleneckOf, type Meter, metered } from './meter.ts';
import type { Bottleneck } from './stats.ts';

export const RUN_SIZES = { p50: 56_000, max: 730_000 } as const;
export const CONCURRENCIES = [1, 4, 16] as const;

export interface ThroughputSample {
  /** longrun (runScenario), or the peer (max-size runs only). */
  side: 'longrun' | 'peer';
  size: keyof typeof RUN_SIZES;
  targetTokens: number;
  concurrency: number;
  runs: number;
  runsCompleted: number;
  /** True when the window stopped runs before they completed. */
  stopped: boolean;
  /** The peer: turns of the runs that ended before the window only. */
  turns: number;
  historyBytes: number;
  /** The peer: 0 (its requests are not recorded). */
  requestBytes: number;
  turnsPerSecond: number;
  historyMBps: number;
  meter: Meter;
  bottleneck: Bottleneck;
}

export async function measureThroughput(windowSeconds: number, log: (line: string) => void): Promise<ThroughputSample[]> {
  const samples: ThroughputSample[] = [];
  for (const size of Object.keys(RUN_SIZES) as (keyof typeof RUN_SIZES)[]) {
    for (const concurrency of CONCURRENCIES) {
      const scenario = benchScenario({
        name: `bench-throughput-${size}-${concurrency}`,
        seed: 5600 + concurrency,
        count: concurrency,
        concurrency,
        targetTokens: RUN_SIZES[size],
      });
      const { value: summary, meter } = await withBenchEnvironment(({ env, serverPid }) => {
        const abort = new AbortController();
        const timer = windowSeconds > 0 ? setTimeout(() => abort.abort(), windowSeconds * 1000) : undefined;
        return metered(serverPid, () =>
          runScenario(scenario, { environment: env, signal: abort.signal }).finally(() => clearTimeout(timer)),
        );
      });
      const runsCompleted = summary.runs.filter((r) => r.outcome === 'completed').length;
      const historyBytes = summary.runs.reduce((n, r) => n + r.executions.reduce((m, e) => m + e.historyBytes, 0), 0);
      const seconds = meter.wallMs / 1000;
      const sample: ThroughputSample = {
        side: 'longrun',
        size,
        targetTokens: RUN_SIZES[size],
        concurrency,
        runs: summary.runs.length,
        runsCompleted,
        stopped: runsCompleted < concurrency,
        turns: summary.totals.turns,
        historyBytes,
        requestBytes: summary.totals.requestBytes,
        turnsPerSecond: summary.totals.turns / seconds,
        historyMBps: historyBytes / 1e6 / seconds,
        meter,
        bottleneck: bottleneckOf(meter),
      };
      samples.push(sample);
      if (size === 'max') samples.push(await measurePeer(scenario, windowSeconds));
      for (const s of samples.slice(samples.indexOf(sample))) {
        log(
          `throughput ${s.side} ${size} x${concurrency}: ${s.turnsPerSecond.toFixed(1)} turns/s, ${s.historyMBps.toFixed(2)} MB/s` +
            `${s.stopped ? ' (window)' : ''}; ${s.bottleneck.limit}`,
        );
      }
    }
  }
  return samples;
}

/** The peer on the scenario's plans, its tool outputs made before the meter starts, stopped at the window as longrun is. */
async function measurePeer(scenario: Scenario, windowSeconds: number): Promise<ThroughputSample> {
  const plans = Array.from({ length: scenario.runs.count }, (_, index) => benchPlan(scenario, index));
  const prepared = prepareRuns(plans);
  const { value, meter } = await withBenchEnvironment(({ env, serverPid }) => {
    const stop = new AbortController();
    const timer = windowSeconds > 0 ? setTimeout(() => stop.abort(), windowSeconds * 1000) : undefined;
    return metered(serverPid, () =>
      runPeerSide(env, scenario, plans, { label: scenario.name, prepared, stop: stop.signal }).finally(() => clearTimeout(timer)),
    );
  });
  const seconds = meter.wallMs / 1000;
  const targetTokens = scenario.shape.overrides?.targetTokens ?? RUN_SIZES.max;
  return {
    side: 'peer',
    size: 'max',
    targetTokens,
    concurrency: scenario.runs.concurrency,
    runs: plans.length,
    runsCompleted: value.runsCompleted,
    stopped: value.runsCompleted < plans.length,
    turns: value.turns,
    historyBytes: value.historyBytes,
    requestBytes: 0,
    turnsPerSecond: value.turns / seconds,
    historyMBps: value.historyBytes / 1e6 / seconds,
    meter,
    bottleneck: bottleneckOf(meter),
  };
}
