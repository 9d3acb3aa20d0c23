/**
 * Throughput: turns per second and history MB per second with 1, 4 and 16 runs at once, for
 * p50-sized and max-sized runs, with the CPU of the server and of this process as evidence of
 * what limits it. A configuration that outlasts the window is stopped (runScenario's abort):
 * its turns and history up to then count, over the whole wall time including judging.
 */

import { runScenario } from '../src/runner/run-scenario.ts';
import { withBenchEnvironment } from './bench-environment.ts';
import { benchScenario } from './bench-scenario.ts';
import { bottleneckOf, type Meter, metered } from './meter.ts';
import type { Bottleneck } from './stats.ts';

export const RUN_SIZES = { p50: 56_000, max: 730_000 } as const;
export const CONCURRENCIES = [1, 4, 16] as const;

export interface ThroughputSample {
  size: keyof typeof RUN_SIZES;
  targetTokens: number;
  concurrency: number;
  runs: number;
  runsCompleted: number;
  /** True when the window stopped runs before they completed. */
  stopped: boolean;
  turns: number;
  historyBytes: number;
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
      log(
        `throughput ${size} x${concurrency}: ${sample.turnsPerSecond.toFixed(1)} turns/s, ${sample.historyMBps.toFixed(2)} MB/s` +
          `${sample.stopped ? ' (window)' : ''}; ${sample.bottleneck.limit}`,
      );
    }
  }
  return samples;
}
