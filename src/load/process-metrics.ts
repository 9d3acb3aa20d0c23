/**
 * Memory and CPU of one process over time (the result model's ProcessMetrics) from its readings:
 * RSS first, last and largest, its growth over the longest life after the warm-up, CPU over wall
 * time. A reading of another process (a restart) starts another life.
 */
import type { ProcessMetrics, ProcessUsage } from '../result/index.ts';
import { leastSquaresSlope } from './least-squares.ts';

const MIB = 1024 * 1024;
const HOUR_MS = 3_600_000;

export interface Reading {
  atMs: number;
  usage: ProcessUsage;
  /** What makes readings one life: the pid (default), or the pids of several processes read as one. */
  identity?: string;
}

/** The RSS slope leaves out each life's first `warmupMs`, and everything after `untilMs`. */
export interface SlopeWindow {
  warmupMs: number;
  untilMs: number;
}

const identityOf = (reading: Reading) => reading.identity ?? String(reading.usage.pid);

/** Consecutive readings of one process. */
function stretches(readings: readonly Reading[]): Reading[][] {
  const out: Reading[][] = [];
  for (const reading of readings) {
    const last = out.at(-1);
    if (last?.[0] && identityOf(last[0]) === identityOf(reading)) last.push(reading);
    else out.push([reading]);
  }
  return out;
}

export function processMetrics(readings: readonly Reading[], slopeWindow: SlopeWindow): ProcessMetrics | undefined {
  const first = readings[0];
  const last = readings.at(-1);
  if (!first || !last) return undefined;
  const runs = stretches(readings);
  const span = (s: Reading[]) => (s.at(-1)?.atMs ?? 0) - (s[0]?.atMs ?? 0);
  // Each process warms up from its own first sample: a replacement's start-up (its caches
  // filling again, by replay) is no more a leak than the first process's.
  const warm = runs
    .map((stretch) => stretch.filter((r) => r.atMs >= (stretch[0]?.atMs ?? 0) + slopeWindow.warmupMs && r.atMs <= slopeWindow.untilMs))
    .filter((stretch) => stretch.length > 0);
  const longest = warm.reduce<Reading[]>((a, b) => (span(b) > span(a) ? b : a), []);
  const slope = leastSquaresSlope(longest.map((r) => ({ x: r.atMs, y: r.usage.rssBytes })));
  let cpu = 0;
  let wall = 0;
  let busiest = 0;
  for (const stretch of runs) {
    for (let i = 1; i < stretch.length; i++) {
      const [a, b] = [stretch[i - 1] as Reading, stretch[i] as Reading];
      const dt = (b.atMs - a.atMs) / 1000;
      if (dt <= 0) continue;
      const used = b.usage.cpuSeconds - a.usage.cpuSeconds;
      cpu += used;
      wall += dt;
      busiest = Math.max(busiest, used / dt);
    }
  }
  return {
    samples: readings.length,
    pids: runs.map((s) => s[0]?.usage.pid as number).filter((pid, i, all) => all.indexOf(pid) === i),
    rssBytes: { first: first.usage.rssBytes, last: last.usage.rssBytes, max: Math.max(...readings.map((r) => r.usage.rssBytes)) },
    ...(slope !== undefined ? { rssGrowthMbPerHour: (slope * HOUR_MS) / MIB, rssGrowthSpanMs: span(longest) } : {}),
    ...(wall > 0 ? { cpuPercent: { mean: (100 * cpu) / wall, max: 100 * busiest } } : {}),
  };
}
