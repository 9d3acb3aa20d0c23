import { describe, expect, it } from 'vitest';
import type { ResourceSample, RunRecord } from '../result/index.ts';
import { computeLoadMetrics } from './load-metrics.ts';

const T0 = Date.parse('2026-11-30T00:00:00.000Z');
const MIB = 1024 * 1024;

function run(id: string, options: { startMs: number; durationMs: number; latencies: number[]; historyBytes: number[] }): RunRecord {
  return {
    runId: id,
    workflowId: `${id}-v1`,
    binary: 'v1',
    outcome: 'completed',
    startedAt: new Date(T0 + options.startMs).toISOString(),
    durationMs: options.durationMs,
    executions: options.historyBytes.map((bytes, i) => ({
      temporalRunId: `${id}-${i}`,
      historyBytes: bytes,
      events: 10,
      closedBy: i === options.historyBytes.length - 1 ? 'completed' : 'continued-as-new',
    })),
    turns: options.latencies.map((latencyMs, i) => ({ turn: i + 1, execution: 1, requestBytes: 1000, latencyMs })),
    compactions: [],
    workflowTaskFailures: 0,
    incidents: [],
    invariants: [],
    historyFiles: [],
  };
}

function sample(atMs: number, worker: [number, number, number], server?: [number, number, number], turns?: number): ResourceSample {
  const usage = ([pid, rssBytes, cpuSeconds]: [number, number, number]) => ({ pid, rssBytes, cpuSeconds });
  return {
    atMs,
    worker: usage(worker),
    ...(server ? { server: usage(server) } : {}),
    ...(turns !== undefined ? { counters: { runsStarted: 0, runsDone: 0, turns } } : {}),
  };
}

describe('computeLoadMetrics', () => {
  const runs = [
    run('a', { startMs: 0, durationMs: 4000, latencies: [100, 200, 300, 400], historyBytes: [30_000, 10_000] }),
    run('b', { startMs: 1000, durationMs: 2000, latencies: [1000, 2000], historyBytes: [8000] }),
  ];
  const samples = [0, 1, 2, 3, 4, 5].map((s) => sample(s * 1000, [7, 100 * MIB + s * MIB, s * 0.5], [9, 50 * MIB, s * 0.25]));

  it('gives overall throughput over the window and latency over every turn', () => {
    const metrics = computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs, samples });
    expect(metrics.overall).toEqual({
      runs: 2,
      turns: 6,
      runsPerSecond: 0.4,
      turnsPerSecond: 1.2,
      historyBytes: 48_000,
      historyBytesPerSecond: 9600,
      // Nearest rank over [100, 200, 300, 400, 1000, 2000].
      latencyMs: { p50: 300, p95: 2000, p99: 2000 },
    });
  });

  it('gives each run its own rates over its own duration', () => {
    const [a, b] = computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs, samples }).runs;
    expect(a).toEqual({
      workflowId: 'a-v1',
      binary: 'v1',
      startedAtMs: 0,
      durationMs: 4000,
      turns: 4,
      turnsPerSecond: 1,
      historyBytes: 40_000,
      historyBytesPerSecond: 10_000,
      latencyMs: { p50: 200, p95: 400, p99: 400 },
    });
    expect(b).toMatchObject({ startedAtMs: 1000, turnsPerSecond: 1, historyBytesPerSecond: 4000, latencyMs: { p50: 1000, p99: 2000 } });
  });

  it('gives RSS growth per hour and CPU share of worker and server', () => {
    const metrics = computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs, samples });
    // +1 MiB a second is 3600 MiB an hour, up to the last run's start (1 s); 0.5 s of CPU a second is 50 %.
    expect(metrics.worker.rssGrowthMbPerHour).toBeCloseTo(3600, 9);
    expect(metrics.worker.rssGrowthSpanMs).toBe(1000);
    expect(metrics.worker.cpuPercent).toEqual({ mean: 50, max: 50 });
    expect(metrics.worker.rssBytes).toEqual({ first: 100 * MIB, last: 105 * MIB, max: 105 * MIB });
    expect(metrics.server?.rssGrowthMbPerHour).toBe(0);
    expect(metrics.server?.cpuPercent).toEqual({ mean: 25, max: 25 });
    expect(metrics.samples).toHaveLength(6);
  });

  it('judges a restarted server on its longest life and keeps CPU per process', () => {
    const restarted = [
      sample(0, [7, MIB, 0], [9, 80 * MIB, 0]),
      sample(1000, [7, MIB, 0], [9, 90 * MIB, 1]),
      sample(2000, [7, MIB, 0]), // the old one is gone, the new one not up yet
      sample(3000, [7, MIB, 0], [11, 20 * MIB, 0.1]),
      sample(4000, [7, MIB, 0], [11, 20 * MIB, 0.2]),
      sample(5000, [7, MIB, 0], [11, 20 * MIB, 0.3]),
    ];
    const server = computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs: [], samples: restarted }).server;
    expect(server?.pids).toEqual([9, 11]);
    expect(server?.samples).toBe(5);
    // Pid 11 lived 2 s, flat; pid 9's 1 s of +10 MiB is not the slope.
    expect(server?.rssGrowthMbPerHour).toBe(0);
    expect(server?.rssGrowthSpanMs).toBe(2000);
    // CPU 1 + 0.2 s over 1 + 2 s of wall time; busiest interval 100 %.
    expect(server?.cpuPercent?.mean).toBeCloseTo(40, 9);
    expect(server?.cpuPercent?.max).toBeCloseTo(100, 9);
  });

  it('leaves the warm-up out of the RSS slope, and only out of it', () => {
    // Start-up climbs 100 MiB in 2 s, then memory is flat.
    const rss = [100, 150, 200, 200, 200, 200].map((mib) => mib * MIB);
    const warming = rss.map((bytes, s) => sample(s * 1000, [7, bytes, s * 0.5]));
    const all = computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs: [], samples: warming });
    expect(all.warmupMs).toBe(0);
    expect(all.worker.rssGrowthMbPerHour).toBeGreaterThan(50_000);
    const warm = computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs: [], samples: warming, warmupMs: 2000 });
    expect(warm.warmupMs).toBe(2000);
    expect(warm.worker.rssGrowthMbPerHour).toBe(0);
    expect(warm.worker.rssGrowthSpanMs).toBe(3000);
    // Only the slope: RSS, CPU and the samples still cover the whole window.
    expect(warm.worker.rssBytes.first).toBe(100 * MIB);
    expect(warm.worker.cpuPercent).toEqual(all.worker.cpuPercent);
    expect(warm.samples).toHaveLength(6);
    expect(
      computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs: [], samples: warming, warmupMs: 5000 }).worker.rssGrowthMbPerHour,
    ).toBeUndefined();
  });

  it("leaves out each process's own warm-up: a replacement's start-up is not its growth", () => {
    // Pid 7 is flat, killed at 4 s; pid 8 climbs 100 MiB in its first 2 s (its caches filling
    // again), then is flat for 4 s. A warm-up counted from the soak's start would fit pid 8's climb.
    const rss = [200, 200, 200, 200, 200, 100, 150, 200, 200, 200, 200, 200];
    const killed = rss.map((mib, s) => sample(s * 1000, [s < 5 ? 7 : 8, mib * MIB, 0]));
    const worker = computeLoadMetrics({ startedAt: T0, windowMs: 11_000, runs: [], samples: killed, warmupMs: 2000 }).worker;
    expect(worker.pids).toEqual([7, 8]);
    expect(worker.rssGrowthMbPerHour).toBe(0);
    expect(worker.rssGrowthSpanMs).toBe(4000);
  });

  it("ends the slope at the last run's start: the drain after it frees memory and would hide growth", () => {
    // +10 MiB a second while runs start (the last at 3 s), then the drain gives 40 MiB back.
    const rss = [100, 110, 120, 130, 110, 90].map((mib) => mib * MIB);
    const draining = rss.map((bytes, s) => sample(s * 1000, [7, bytes, 0]));
    const last = run('c', { startMs: 3000, durationMs: 2000, latencies: [100], historyBytes: [1000] });
    const worker = computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs: [runs[0] as RunRecord, last], samples: draining }).worker;
    expect(worker.rssGrowthMbPerHour).toBeCloseTo(36_000, 6);
    expect(worker.rssGrowthSpanMs).toBe(3000);
    expect(worker.rssBytes.last).toBe(90 * MIB);
    expect(computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs: [], samples: draining }).worker.rssGrowthMbPerHour).toBeLessThan(
      10_000,
    );
  });

  it("gives the database's memory and CPU beside the server's, only from samples that have it", () => {
    const withDatabase = samples.map((s, i) =>
      i === 2 ? s : { ...s, database: { pid: 12, rssBytes: 80 * MIB + i * MIB, cpuSeconds: i } },
    );
    const metrics = computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs, samples: withDatabase });
    expect(metrics.database).toMatchObject({ samples: 5, pids: [12], rssBytes: { first: 80 * MIB, last: 85 * MIB, max: 85 * MIB } });
    expect(metrics.database?.cpuPercent?.mean).toBeCloseTo(100, 9);
    expect(metrics.server?.rssBytes.max).toBe(50 * MIB);
    expect(computeLoadMetrics({ startedAt: T0, windowMs: 5000, runs, samples }).database).toBeUndefined();
  });

  it('leaves out what it cannot know: no server, no slope from one sample', () => {
    const metrics = computeLoadMetrics({ startedAt: T0, windowMs: 0, runs: [], samples: [sample(0, [7, MIB, 0])] });
    expect(metrics.server).toBeUndefined();
    expect(metrics.database).toBeUndefined();
    expect(metrics.worker.rssGrowthMbPerHour).toBeUndefined();
    expect(metrics.worker.cpuPercent).toBeUndefined();
    expect(metrics.overall.turnsPerSecond).toBe(0);
    expect(() => computeLoadMetrics({ startedAt: T0, windowMs: 0, runs: [], samples: [] })).toThrow('samples is empty');
  });

  it('splits a ramp into stages: runs started, their latency, turns per second from the counters', () => {
    const ramp = {
      startRate: 1,
      stages: [
        { durationMs: 2000, target: 1 },
        { durationMs: 2000, target: 3 },
      ],
    };
    const counted = [0, 1, 2, 3, 4].map((s) => sample(s * 1000, [7, MIB, 0], undefined, [0, 2, 4, 10, 16][s]));
    const rampRuns = [
      run('r0', { startMs: 0, durationMs: 1000, latencies: [10], historyBytes: [1] }),
      run('r1', { startMs: 1000, durationMs: 1000, latencies: [20], historyBytes: [1] }),
      run('r2', { startMs: 2000, durationMs: 1000, latencies: [300], historyBytes: [1] }),
      run('r3', { startMs: 2700, durationMs: 1000, latencies: [400], historyBytes: [1] }),
      run('r4', { startMs: 3300, durationMs: 1000, latencies: [500], historyBytes: [1] }),
    ];
    const { stages } = computeLoadMetrics({ startedAt: T0, windowMs: 4000, runs: rampRuns, samples: counted, ramp });
    expect(stages).toEqual([
      {
        stage: 0,
        fromMs: 0,
        toMs: 2000,
        rate: { from: 1, to: 1 },
        runsStarted: 2,
        runsStartedPerSecond: 1,
        turnsPerSecond: 2,
        latencyMs: { p50: 10, p95: 20, p99: 20 },
      },
      {
        stage: 1,
        fromMs: 2000,
        toMs: 4000,
        rate: { from: 1, to: 3 },
        runsStarted: 3,
        runsStartedPerSecond: 1.5,
        turnsPerSecond: 6,
        latencyMs: { p50: 400, p95: 500, p99: 500 },
      },
    ]);
  });
});
