import { describe, expect, it } from 'vitest';
import type { LoadMetrics, ProcessMetrics, ResourceSample } from '../result/index.ts';
import { durationMs, resolveScenario } from '../scenario/index.ts';
import { computeLoadMetrics } from './load-metrics.ts';
import { soakVerdict } from './soak-verdict.ts';

const MIB = 1024 * 1024;

function processMetrics(growth: number | undefined, pids = [7]): ProcessMetrics {
  return {
    samples: 600,
    pids,
    rssBytes: { first: 200 * MIB, last: 210 * MIB, max: 215 * MIB },
    ...(growth !== undefined ? { rssGrowthMbPerHour: growth } : {}),
    cpuPercent: { mean: 40, max: 90 },
  };
}

function metrics(
  overrides: {
    turns?: number;
    turnsPerSecond?: number;
    p99?: number;
    worker?: ProcessMetrics;
    server?: ProcessMetrics | null;
    warmupMs?: number;
  } = {},
): LoadMetrics {
  const server = overrides.server === undefined ? processMetrics(12) : overrides.server;
  return {
    windowMs: 600_000,
    warmupMs: overrides.warmupMs ?? 0,
    overall: {
      runs: 40,
      turns: overrides.turns ?? 3000,
      runsPerSecond: 40 / 600,
      turnsPerSecond: overrides.turnsPerSecond ?? 5,
      historyBytes: 1e9,
      historyBytesPerSecond: 1e9 / 600,
      latencyMs: { p50: 120, p95: 800, p99: overrides.p99 ?? 1500 },
    },
    runs: [],
    worker: overrides.worker ?? processMetrics(30),
    ...(server ? { server } : {}),
    samples: [],
  };
}

describe('soakVerdict', () => {
  it('states nothing when the scenario states no threshold', () => {
    expect(soakVerdict({}, metrics())).toEqual([]);
  });

  it('meets every threshold within bounds, one record each, with the measured values', () => {
    const records = soakVerdict({ minTurnsPerSecond: 4, maxP99LatencyMs: 2000, maxRssGrowthMbPerHour: 50 }, metrics());
    expect(records).toEqual([
      { description: 'at least 4 turns/s', met: true, detail: '5 turns/s: 3000 turns in 600 s' },
      { description: 'p99 turn latency at most 2000 ms', met: true, detail: 'p99 1500 ms (p50 120, p95 800) over 3000 turns' },
      {
        description: 'worker RSS growth at most 50 MiB/h',
        met: true,
        detail: '30 MiB/h over 600 samples (RSS 200 -> 210 MiB, max 215 MiB)',
      },
      {
        description: 'server RSS growth at most 50 MiB/h',
        met: true,
        detail: '12 MiB/h over 600 samples (RSS 200 -> 210 MiB, max 215 MiB)',
      },
    ]);
  });

  it('fails each threshold that is crossed, and only that one', () => {
    const met = (m: LoadMetrics, t: Parameters<typeof soakVerdict>[0]) => soakVerdict(t, m).map((r) => r.met);
    expect(met(metrics({ turnsPerSecond: 3.99 }), { minTurnsPerSecond: 4, maxP99LatencyMs: 2000 })).toEqual([false, true]);
    expect(met(metrics({ p99: 2001 }), { minTurnsPerSecond: 4, maxP99LatencyMs: 2000 })).toEqual([true, false]);
    expect(met(metrics({ worker: processMetrics(51) }), { maxRssGrowthMbPerHour: 50 })).toEqual([false, true]);
    expect(met(metrics({ server: processMetrics(60) }), { maxRssGrowthMbPerHour: { worker: 50, server: 80 } })).toEqual([true, true]);
    expect(met(metrics({ server: processMetrics(60) }), { maxRssGrowthMbPerHour: { server: 40 } })).toEqual([false]);
  });

  it('does not pass what it could not measure', () => {
    expect(soakVerdict({ maxP99LatencyMs: 2000 }, metrics({ turns: 0, p99: 0 }))).toEqual([
      { description: 'p99 turn latency at most 2000 ms', met: false, detail: 'no turn completed: nothing to measure' },
    ]);
    const [, server] = soakVerdict({ maxRssGrowthMbPerHour: 50 }, metrics({ server: null }));
    expect(server).toMatchObject({ description: 'server RSS growth at most 50 MiB/h', met: false });
    expect(server?.detail).toContain('the server process was not sampled');
    const [worker] = soakVerdict({ maxRssGrowthMbPerHour: { worker: 50 } }, metrics({ worker: processMetrics(undefined) }));
    expect(worker).toMatchObject({ met: false, detail: 'fewer than two samples of one worker process: no slope' });
    const [late] = soakVerdict(
      { maxRssGrowthMbPerHour: { worker: 50 } },
      metrics({ worker: processMetrics(undefined), warmupMs: 700_000 }),
    );
    expect(late?.detail).toBe('fewer than two samples of one worker process after the 700 s warm-up: no slope');
  });

  it('says when the slope leaves out a warm-up', () => {
    const [record] = soakVerdict({ maxRssGrowthMbPerHour: { worker: 50 } }, metrics({ warmupMs: 120_000 }));
    expect(record?.detail).toBe('30 MiB/h over 600 samples (RSS 200 -> 210 MiB, max 215 MiB); slope after a 120 s warm-up');
  });

  it('says when the server was restarted', () => {
    const [record] = soakVerdict({ maxRssGrowthMbPerHour: { server: 50 } }, metrics({ server: processMetrics(10, [9, 11]) }));
    expect(record?.detail).toContain('restarted (pids 9, 11), slope over its longest life');
  });

  it("fails nightly-soak's worker bound on a worker that grows faster, from its samples, kill and warm-ups included", () => {
    const { scenario } = resolveScenario('nightly-soak');
    const thresholds = scenario.soak ?? {};
    const bound = typeof thresholds.maxRssGrowthMbPerHour === 'object' ? thresholds.maxRssGrowthMbPerHour.worker : undefined;
    if (bound === undefined) throw new Error('nightly-soak states no worker RSS bound');
    const warmupMs = durationMs(thresholds.warmup ?? 0);
    const killAtMs = durationMs(scenario.chaos[0]?.after ?? 0);
    // Ten minutes, a sample a second: the worker killed at the kill, each process climbing 60
    // MiB while it warms up and then growing at `mibPerHour`; the server flat.
    const soak = (mibPerHour: number): ResourceSample[] =>
      Array.from({ length: 601 }, (_, s) => {
        const atMs = s * 1000;
        const sinceStart = atMs < killAtMs ? atMs : atMs - killAtMs;
        const climb = Math.min(sinceStart / warmupMs, 1) * 60;
        const rss = (200 + climb + (mibPerHour * sinceStart) / 3_600_000) * MIB;
        return {
          atMs,
          worker: { pid: atMs < killAtMs ? 7 : 8, rssBytes: rss, cpuSeconds: s },
          server: { pid: 9, rssBytes: 150 * MIB, cpuSeconds: s },
        };
      });
    const verdict = (mibPerHour: number) =>
      soakVerdict(
        { maxRssGrowthMbPerHour: thresholds.maxRssGrowthMbPerHour },
        computeLoadMetrics({ startedAt: 0, windowMs: 600_000, runs: [], samples: soak(mibPerHour), warmupMs }),
      )[0];
    expect(verdict(bound / 2)).toMatchObject({ description: `worker RSS growth at most ${bound} MiB/h`, met: true });
    const leak = verdict(bound * 1.5);
    expect(leak?.met).toBe(false);
    expect(leak?.detail).toMatch(new RegExp(`^${bound * 1.5} MiB/h over 601 samples`));
  });

  it("judges services-soak's server bound on its four services together, each restart of its own a life of its own", () => {
    const { scenario } = resolveScenario('services-soak');
    const thresholds = scenario.soak ?? {};
    const bound = typeof thresholds.maxRssGrowthMbPerHour === 'object' ? thresholds.maxRssGrowthMbPerHour.server : undefined;
    if (bound === undefined) throw new Error('services-soak states no server RSS bound');
    const warmupMs = durationMs(thresholds.warmup ?? 0);
    // Each restart-service step: the service, and when it is killed (down for 2 s).
    const kills = new Map(scenario.chaos.map((step) => [step.service ?? '', durationMs(step.after ?? 0)]));
    expect([...kills.keys()]).toEqual(['history', 'matching']);
    const services = ['frontend', 'history', 'matching', 'worker'];
    // Five minutes, a sample a second; each process climbs 30 MiB while it warms up, then every
    // service grows at a quarter of `mibPerHour`, so that the server grows at `mibPerHour`.
    const soak = (mibPerHour: number): ResourceSample[] =>
      Array.from({ length: 301 }, (_, s) => {
        const atMs = s * 1000;
        const usage = services.flatMap((name, i) => {
          const killAt = kills.get(name) ?? Number.POSITIVE_INFINITY;
          if (atMs >= killAt && atMs < killAt + 2000) return []; // down
          const since = atMs < killAt ? atMs : atMs - killAt - 2000;
          const rss = (100 + Math.min(since / warmupMs, 1) * 30 + (mibPerHour / 4) * (since / 3_600_000)) * MIB;
          return [[name, { pid: atMs < killAt ? 10 + i : 20 + i, rssBytes: Math.round(rss), cpuSeconds: since / 4000 }] as const];
        });
        return { atMs, worker: { pid: 7, rssBytes: 200 * MIB, cpuSeconds: s }, services: Object.fromEntries(usage) };
      });
    const verdict = (mibPerHour: number) =>
      soakVerdict(
        { maxRssGrowthMbPerHour: { server: bound } },
        computeLoadMetrics({ startedAt: 0, windowMs: 300_000, runs: [], samples: soak(mibPerHour), warmupMs }),
      )[0];
    expect(verdict(bound / 2)).toMatchObject({ description: `server RSS growth at most ${bound} MiB/h`, met: true });
    const leak = verdict(bound * 1.5);
    expect(leak?.met).toBe(false);
    expect(leak?.detail).toMatch(new RegExp(`^${bound * 1.5} MiB/h over \\d+ samples`));
    expect(leak?.detail).toContain(
      `the sum of each service's slope over its longest life (frontend ${bound * 0.375}, history ${bound * 0.375}, matching ${bound * 0.375}, worker ${bound * 0.375} MiB/h); history restarted (pids 11, 21), matching restarted (pids 12, 22)`,
    );
  });

  it('names the service with no slope of its own', () => {
    const server = { ...processMetrics(undefined, [1, 2, 3, 4]) };
    const services = { frontend: processMetrics(5, [1]), history: processMetrics(undefined, [2, 5]) };
    const [record] = soakVerdict({ maxRssGrowthMbPerHour: { server: 50 } }, { ...metrics({ server }), services, warmupMs: 120_000 });
    expect(record).toMatchObject({
      met: false,
      detail: 'fewer than two samples of one history service process after the 120 s warm-up: no slope',
    });
  });
});
