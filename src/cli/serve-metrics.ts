/**
 * `--metrics-port`: a Prometheus endpoint while the runs go on. The SDK runtime is installed
 * here, before anything else starts it, with its own exporter on a free loopback port; the
 * endpoint serves longrun's counters (from the runner's progress) followed by the SDK's.
 * Workers in child processes (chaos) and foreign workers export their own metrics, if any.
 */
import { freeLoopbackPort, installRuntime } from '../environment/index.ts';
import { type LongrunCounters, startPrometheusEndpoint } from '../load/index.ts';
import type { Progress } from '../runner/run-scenario.ts';

export interface ServedMetrics {
  update(progress: Progress): void;
  close(): Promise<void>;
}

export async function servePrometheus(scenario: string, port: number): Promise<ServedMetrics> {
  const sdkAddress = `127.0.0.1:${await freeLoopbackPort()}`;
  installRuntime({ prometheusAddress: sdkAddress });
  let counters: LongrunCounters = { runsStarted: 0, runsJudged: 0, runsJudging: 0, turns: 0, requestBytes: 0, violations: 0 };
  const endpoint = await startPrometheusEndpoint({
    port,
    scenario,
    counters: () => counters,
    sdkMetricsUrl: `http://${sdkAddress}/metrics`,
  });
  process.stderr.write(`longrun: Prometheus metrics at ${endpoint.url}\n`);
  return {
    update(progress) {
      counters = {
        runsStarted: progress.runsStarted,
        runsJudged: progress.runsDone,
        runsJudging: progress.runsJudging,
        turns: progress.turns,
        requestBytes: progress.bytes,
        violations: progress.violations,
      };
    },
    close: () => endpoint.close(),
  };
}
