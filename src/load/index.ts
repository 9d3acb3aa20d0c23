/**
 * Load and soak: metrics of a run under load (throughput, turn latency, history bytes, memory
 * and CPU of the worker and the server over time), ramps of the arrival rate, and the soak
 * verdict against a scenario's thresholds.
 */
export { leastSquaresSlope, type Point } from './least-squares.ts';
export { computeLoadMetrics, type LoadMetricsInput } from './load-metrics.ts';
export { MetricsSampler, type MetricsSamplerOptions } from './metrics-sampler.ts';
export { ownUsage, parseProcStat, parseVmRssBytes, readProcessUsage } from './process-usage.ts';
export {
  type LongrunCounters,
  type PrometheusEndpoint,
  renderLongrunMetrics,
  startPrometheusEndpoint,
} from './prometheus-endpoint.ts';
export { type ArrivalSchedule, arrivalSchedule, checkRamp } from './ramp.ts';
export {
  childPids,
  findEmbeddedServerPid,
  findEmbeddedServicePid,
  findProcessByCommand,
  isDevServerOnPort,
  isDevServiceOnPort,
  serverPidFinder,
  servicePidsFinder,
} from './server-process.ts';
export { soakVerdict } from './soak-verdict.ts';
