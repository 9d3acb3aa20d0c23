/**
 * The soak's verdict: each threshold a scenario states, judged on the load metrics, as an
 * expectation record beside the invariant expectations (same junit and report treatment).
 * A stated threshold that could not be measured is not met, and says why.
 */
import type { ExpectationRecord, LoadMetrics, ProcessMetrics } from '../result/index.ts';
import type { SoakThresholds } from '../scenario/soak-schema.ts';

const fixed = (n: number, digits = 2) => Number(n.toFixed(digits)).toString();

export function soakVerdict(thresholds: SoakThresholds, metrics: LoadMetrics): ExpectationRecord[] {
  const records: ExpectationRecord[] = [];
  const { overall } = metrics;
  const seconds = metrics.windowMs / 1000;
  if (thresholds.minTurnsPerSecond !== undefined) {
    records.push({
      description: `at least ${fixed(thresholds.minTurnsPerSecond)} turns/s`,
      met: overall.turnsPerSecond >= thresholds.minTurnsPerSecond,
      detail: `${fixed(overall.turnsPerSecond)} turns/s: ${overall.turns} turns in ${fixed(seconds, 1)} s`,
    });
  }
  if (thresholds.maxP99LatencyMs !== undefined) {
    const description = `p99 turn latency at most ${fixed(thresholds.maxP99LatencyMs)} ms`;
    records.push(
      overall.turns === 0
        ? { description, met: false, detail: 'no turn completed: nothing to measure' }
        : {
            description,
            met: overall.latencyMs.p99 <= thresholds.maxP99LatencyMs,
            detail: `p99 ${fixed(overall.latencyMs.p99)} ms (p50 ${fixed(overall.latencyMs.p50)}, p95 ${fixed(overall.latencyMs.p95)}) over ${overall.turns} turns`,
          },
    );
  }
  const growth = thresholds.maxRssGrowthMbPerHour;
  if (growth !== undefined) {
    const limits = typeof growth === 'number' ? { worker: growth, server: growth } : growth;
    if (limits.worker !== undefined) records.push(rssGrowthRecord('worker', limits.worker, metrics.worker, metrics.warmupMs));
    if (limits.server !== undefined)
      records.push(rssGrowthRecord('server', limits.server, metrics.server, metrics.warmupMs, metrics.services));
  }
  return records;
}

function rssGrowthRecord(
  role: 'worker' | 'server',
  limit: number,
  process: ProcessMetrics | undefined,
  warmupMs: number,
  /** The server run as one process per service: its parts, each fitted on its own. */
  services?: Record<string, ProcessMetrics>,
): ExpectationRecord {
  const description = `${role} RSS growth at most ${fixed(limit)} MiB/h`;
  if (!process) {
    return {
      description,
      met: false,
      detail: `the ${role} process was not sampled (an existing cluster without LONGRUN_SERVER_PROCESS); state maxRssGrowthMbPerHour: { worker: N } to judge the worker alone`,
    };
  }
  if (process.rssGrowthMbPerHour === undefined) {
    const after = warmupMs > 0 ? ` after the ${fixed(warmupMs / 1000, 1)} s warm-up` : '';
    const unfitted = Object.entries(services ?? {}).flatMap(([name, p]) => (p.rssGrowthMbPerHour === undefined ? [name] : []));
    const what = services ? `one ${unfitted.join(' or ')} service process` : `one ${role} process`;
    return { description, met: false, detail: `fewer than two samples of ${what}${after}: no slope` };
  }
  const mib = (bytes: number) => fixed(bytes / (1024 * 1024), 1);
  const restarted = services
    ? servicesNote(services)
    : process.pids.length > 1
      ? `; restarted (pids ${process.pids.join(', ')}), slope over its longest life`
      : '';
  const warmup = warmupMs > 0 ? `; slope after a ${fixed(warmupMs / 1000, 1)} s warm-up` : '';
  return {
    description,
    met: process.rssGrowthMbPerHour <= limit,
    detail: `${fixed(process.rssGrowthMbPerHour)} MiB/h over ${process.samples} samples (RSS ${mib(process.rssBytes.first)} -> ${mib(process.rssBytes.last)} MiB, max ${mib(process.rssBytes.max)} MiB)${restarted}${warmup}`,
  };
}

/** The server's slope as the sum of its services' slopes, and which of them were restarted. */
function servicesNote(services: Record<string, ProcessMetrics>): string {
  const restarted = Object.entries(services).flatMap(([name, p]) =>
    p.pids.length > 1 ? [`${name} restarted (pids ${p.pids.join(', ')})`] : [],
  );
  const each = Object.entries(services).map(([name, p]) => `${name} ${fixed(p.rssGrowthMbPerHour ?? 0)}`);
  return `; the sum of each service's slope over its longest life (${each.join(', ')} MiB/h)${restarted.length > 0 ? `; ${restarted.join(', ')}` : ''}`;
}
