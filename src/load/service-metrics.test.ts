import { describe, expect, it } from 'vitest';
import type { ProcessUsage, ResourceSample } from '../result/index.ts';
import { computeLoadMetrics } from './load-metrics.ts';
import { serviceMetrics } from './service-metrics.ts';

const MIB = 1024 * 1024;
const HOUR_MS = 3_600_000;
const ALWAYS = { warmupMs: 0, untilMs: Number.POSITIVE_INFINITY };

type Service = 'frontend' | 'history' | 'matching' | 'worker';

/**
 * A sample a second: each service at its own RSS (MiB) growing `mibPerHour` from its start,
 * and CPU at `cores` of a core; `pidAt` says which process runs a service then (undefined: down).
 */
function samples(
  seconds: number,
  shape: Record<Service, { mib: number; mibPerHour: number; cores: number }>,
  pidAt: (service: Service, s: number) => number | undefined,
): ResourceSample[] {
  return Array.from({ length: seconds + 1 }, (_, s) => {
    const services: Record<string, ProcessUsage> = {};
    for (const [name, { mib, mibPerHour, cores }] of Object.entries(shape) as [Service, (typeof shape)[Service]][]) {
      const pid = pidAt(name, s);
      if (pid === undefined) continue;
      // A new process starts from its base again: its life so far is the seconds since its pid first ran.
      let born = s;
      while (born > 0 && pidAt(name, born - 1) === pid) born--;
      const alive = (s - born) * 1000;
      services[name] = { pid, rssBytes: Math.round((mib + (mibPerHour * alive) / HOUR_MS) * MIB), cpuSeconds: (cores * alive) / 1000 };
    }
    return { atMs: s * 1000, worker: { pid: 1, rssBytes: 100 * MIB, cpuSeconds: s }, services };
  });
}

const SHAPE = {
  frontend: { mib: 100, mibPerHour: 36, cores: 0.25 },
  history: { mib: 120, mibPerHour: 72, cores: 0.5 },
  matching: { mib: 110, mibPerHour: 18, cores: 0.125 },
  worker: { mib: 90, mibPerHour: 0, cores: 0.125 },
};
const PIDS: Record<Service, number> = { frontend: 11, history: 12, matching: 13, worker: 14 };
const steady = (service: Service) => PIDS[service];

describe('serviceMetrics', () => {
  it('gives each service its own figures and the server as their sum', () => {
    const metrics = serviceMetrics(samples(600, SHAPE, steady), ALWAYS);
    const { history } = metrics?.services ?? {};
    expect(Object.keys(metrics?.services ?? {})).toEqual(['frontend', 'history', 'matching', 'worker']);
    expect(history?.pids).toEqual([12]);
    expect(history?.rssBytes).toEqual({ first: 120 * MIB, last: 132 * MIB, max: 132 * MIB });
    expect(history?.rssGrowthMbPerHour).toBeCloseTo(72, 6);
    expect(history?.cpuPercent?.mean).toBeCloseTo(50, 6);
    const server = metrics?.server;
    expect(server?.samples).toBe(601);
    expect(server?.pids).toEqual([11, 12, 13, 14]);
    // 420 MiB at the start; 36 + 72 + 18 + 0 = 126 MiB/h for ten minutes adds 21 MiB.
    expect(server?.rssBytes).toEqual({ first: 420 * MIB, last: 441 * MIB, max: 441 * MIB });
    expect(server?.rssGrowthMbPerHour).toBeCloseTo(126, 6);
    expect(server?.rssGrowthSpanMs).toBe(600_000);
    expect(server?.cpuPercent?.mean).toBeCloseTo(100, 6);
    expect(server?.cpuPercent?.max).toBeCloseTo(100, 6);
  });

  it('sums only the samples that found every service, and sums slopes fitted on each life', () => {
    // History killed at 200 s, down for 3 s, back as pid 22; matching at 350 s, back at once as 23.
    const restarts = (service: Service, s: number) => {
      if (service === 'history') return s < 200 ? 12 : s < 203 ? undefined : 22;
      if (service === 'matching') return s < 350 ? 13 : 23;
      return PIDS[service];
    };
    const warm = { warmupMs: 120_000, untilMs: Number.POSITIVE_INFINITY };
    const metrics = serviceMetrics(samples(600, SHAPE, restarts), warm);
    expect(metrics?.services.history?.pids).toEqual([12, 22]);
    expect(metrics?.services.matching?.pids).toEqual([13, 23]);
    expect(metrics?.server?.pids).toEqual([11, 12, 13, 14, 22, 23]);
    // The three seconds history was down are left out of the whole, not read as memory freed.
    expect(metrics?.server?.samples).toBe(598);
    // At the end: the frontend and worker 600 s old, history 397 s, matching 250 s.
    const last = 100 + (36 * 600) / 3600 + 120 + (72 * 397) / 3600 + 110 + (18 * 250) / 3600 + 90;
    const { first, max } = metrics?.server?.rssBytes ?? {};
    expect([first, max].map((bytes) => (bytes ?? 0) / MIB)).toEqual([420, expect.closeTo(last, 3)]);
    // No stretch of the whole outlives the warm-up past 350 s; each service's own longest life does.
    expect(metrics?.server?.rssGrowthMbPerHour).toBeCloseTo(126, 6);
    expect(metrics?.server?.rssGrowthSpanMs).toBe(229_000); // the shortest: matching's first life after its warm-up, 120 s to its last sample at 349 s
  });

  it('leaves the slope out when a service has none, and the whole out when no sample found every service', () => {
    const history = (service: Service, s: number) => (service === 'history' ? (s < 599 ? 12 : 22) : PIDS[service]);
    const metrics = serviceMetrics(samples(600, SHAPE, history), { warmupMs: 599_500, untilMs: Number.POSITIVE_INFINITY });
    expect(metrics?.services.history?.rssGrowthMbPerHour).toBeUndefined();
    expect(metrics?.server?.rssGrowthMbPerHour).toBeUndefined();
    expect(metrics?.server?.rssGrowthSpanMs).toBeUndefined();
    const apart = serviceMetrics(
      samples(10, SHAPE, (service, s) => (service === 'worker' && s % 2 === 0 ? undefined : PIDS[service])),
      ALWAYS,
    );
    expect(apart?.services.worker?.samples).toBe(5);
    expect(apart?.server?.samples).toBe(5);
    const never = serviceMetrics(
      samples(10, SHAPE, (service, s) => (service === 'worker' ? (s % 2 === 0 ? 14 : undefined) : s % 2 === 0 ? undefined : PIDS[service])),
      ALWAYS,
    );
    expect(never?.services.worker?.samples).toBe(6);
    expect(never?.server).toBeUndefined();
  });

  it('is not there for a server run as one process', () => {
    const one: ResourceSample[] = [0, 1].map((s) => ({
      atMs: s * 1000,
      worker: { pid: 1, rssBytes: MIB, cpuSeconds: s },
      server: { pid: 9, rssBytes: MIB, cpuSeconds: s },
    }));
    expect(serviceMetrics(one, ALWAYS)).toBeUndefined();
    const metrics = computeLoadMetrics({ startedAt: 0, windowMs: 1000, runs: [], samples: one });
    expect(metrics.services).toBeUndefined();
    expect(metrics.server?.pids).toEqual([9]);
  });

  it('puts the services in the load metrics, `server` their sum', () => {
    const metrics = computeLoadMetrics({ startedAt: 0, windowMs: 600_000, runs: [], samples: samples(600, SHAPE, steady) });
    expect(Object.keys(metrics.services ?? {})).toEqual(['frontend', 'history', 'matching', 'worker']);
    expect(metrics.server?.rssBytes.max).toBe(441 * MIB);
    expect(metrics.services?.frontend?.rssBytes.max).toBe(106 * MIB);
  });
});
