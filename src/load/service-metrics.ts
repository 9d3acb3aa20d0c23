/**
 * The server run as one process per service (server.topology services): each service's memory
 * and CPU from its own series (`load.services`), and the whole server's (`load.server`) as their
 * sum, so that the server's figures mean the same on either topology: all of it.
 */
import type { ProcessMetrics, ProcessUsage, ResourceSample } from '../result/index.ts';
import { processMetrics, type Reading, type SlopeWindow } from './process-metrics.ts';

export interface ServiceMetrics {
  services: Record<string, ProcessMetrics>;
  /** Absent when no sample found every service at once. */
  server?: ProcessMetrics;
}

/** Undefined when no sample holds a service (the server ran as one process, or was not sampled). */
export function serviceMetrics(samples: readonly ResourceSample[], slopeWindow: SlopeWindow): ServiceMetrics | undefined {
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.services ?? {})))];
  if (names.length === 0) return undefined;
  const services: Record<string, ProcessMetrics> = {};
  for (const name of names) {
    const readings = samples.flatMap((s) => {
      const usage = s.services?.[name];
      return usage ? [{ atMs: s.atMs, usage }] : [];
    });
    const metrics = processMetrics(readings, slopeWindow);
    if (metrics) services[name] = metrics;
  }
  const server = wholeServer(samples, names, services, slopeWindow);
  return { services, ...(server ? { server } : {}) };
}

/**
 * Memory and CPU summed over the samples that found every service: one missing (killed, not yet
 * back) would read as memory freed. A service restarted starts another life of the whole, as a
 * restarted process does. The RSS slope is the sum of each service's own, each fitted over its
 * longest life: a restart every few minutes (services-soak) leaves the whole no life as long as
 * the warm-up, while each service has one.
 */
function wholeServer(
  samples: readonly ResourceSample[],
  names: readonly string[],
  services: Record<string, ProcessMetrics>,
  slopeWindow: SlopeWindow,
): ProcessMetrics | undefined {
  const readings = samples.flatMap((s): Reading[] => {
    const parts = names.map((name) => s.services?.[name]).filter((usage): usage is ProcessUsage => usage !== undefined);
    const [first] = parts;
    if (!first || parts.length < names.length) return [];
    const sum = (field: 'rssBytes' | 'cpuSeconds') => parts.reduce((n, usage) => n + usage[field], 0);
    return [
      {
        atMs: s.atMs,
        usage: { pid: first.pid, rssBytes: sum('rssBytes'), cpuSeconds: sum('cpuSeconds') },
        identity: parts.map((usage) => usage.pid).join(' '),
      },
    ];
  });
  const summed = processMetrics(readings, slopeWindow);
  if (!summed) return undefined;
  const { rssGrowthMbPerHour: _slope, rssGrowthSpanMs: _span, ...whole } = summed;
  const parts = names.map((name) => services[name]);
  const slopes = parts.map((p) => p?.rssGrowthMbPerHour);
  const spans = parts.map((p) => p?.rssGrowthSpanMs);
  const allOf = (values: (number | undefined)[]) => (values.every((v) => v !== undefined) ? (values as number[]) : undefined);
  const [eachSlope, eachSpan] = [allOf(slopes), allOf(spans)];
  return {
    ...whole,
    pids: [...new Set(samples.flatMap((s) => Object.values(s.services ?? {}).map((usage) => usage.pid)))],
    ...(eachSlope && eachSpan ? { rssGrowthMbPerHour: eachSlope.reduce((a, b) => a + b, 0), rssGrowthSpanMs: Math.min(...eachSpan) } : {}),
  };
}
