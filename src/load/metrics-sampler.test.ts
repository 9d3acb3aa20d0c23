import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureRun } from '../result/testing/index.ts';
import { MetricsSampler } from './metrics-sampler.ts';
import { parsePssBytes } from './process-tree-usage.ts';
import { readProcessUsage } from './process-usage.ts';
import { childPids } from './server-process.ts';

describe('MetricsSampler', () => {
  it('samples this process from start to stop and counts the runs it is given', () => {
    const counters = { runsStarted: 1, runsDone: 0, turns: 0 };
    const sampler = new MetricsSampler({ counters: () => counters, serverPid: () => undefined });
    sampler.start();
    const run = fixtureRun({ runId: 'run-0001', turns: 12, growthBytes: 10_000, compaction: 'none' });
    counters.runsDone = 1;
    counters.turns = 12;
    sampler.addRun(run);
    const metrics = sampler.stop();
    expect(metrics.samples.map((s) => s.counters)).toEqual([
      { runsStarted: 1, runsDone: 0, turns: 0 },
      { runsStarted: 1, runsDone: 1, turns: 12 },
    ]);
    expect(metrics.samples.every((s) => s.worker.pid === process.pid && s.server === undefined)).toBe(true);
    expect(metrics.server).toBeUndefined();
    expect(metrics.database).toBeUndefined();
    expect(metrics.overall).toMatchObject({ runs: 1, turns: 12 });
    expect(metrics.runs.map((r) => r.workflowId)).toEqual([run.workflowId]);
  });

  it("samples the workers' process when they run apart, and skips a sample while there is none", async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      let pid: number | undefined = child.pid;
      const sampler = new MetricsSampler({ everyMs: 10, workerPid: () => pid });
      sampler.start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      pid = undefined; // killed, not yet replaced
      await new Promise((resolve) => setTimeout(resolve, 50));
      pid = child.pid;
      const metrics = sampler.stop();
      expect(metrics.samples.every((s) => s.worker.pid === child.pid && s.worker.rssBytes > 0)).toBe(true);
      const gaps = metrics.samples.slice(1).map((s, i) => s.atMs - (metrics.samples[i]?.atMs ?? 0));
      expect(Math.max(...gaps)).toBeGreaterThanOrEqual(40);
      expect(metrics.worker.pids).toEqual([child.pid]);
    } finally {
      child.kill();
    }
  });

  it('samples the database as its process and its children together', async () => {
    // A stand-in for PostgreSQL: a parent with two children, as the postmaster and its backends.
    const parent = spawn('sh', ['-c', 'sleep 30 & sleep 30 & wait'], { stdio: 'ignore' });
    try {
      const pid = parent.pid as number;
      while (childPids(pid).length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      const sampler = new MetricsSampler({ databasePid: () => pid });
      sampler.start();
      const metrics = sampler.stop();
      const pss = (p: number) => parsePssBytes(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'));
      expect(metrics.database?.pids).toEqual([pid]);
      expect(metrics.samples.every((s) => s.database?.pid === pid)).toBe(true);
      // More than the parent alone (the children are in it), less than their RSS summed (the
      // libraries they share count once).
      expect(metrics.database?.rssBytes.max).toBeGreaterThan(pss(pid) + 4096);
      const rss = [pid, ...childPids(pid)].reduce((n, p) => n + (readProcessUsage(p)?.rssBytes ?? 0), 0);
      expect(metrics.database?.rssBytes.max).toBeLessThan(rss);
    } finally {
      parent.kill();
    }
  });

  it('samples each service of the server run as one process per service, those found and running', async () => {
    const [frontend, history, gone] = [0, 1, 2].map(() => spawn('sleep', ['30'], { stdio: 'ignore' }));
    try {
      const pid = (child: typeof frontend) => child?.pid as number;
      await new Promise((resolve) => gone?.once('spawn', resolve));
      gone?.kill('SIGKILL');
      await new Promise((resolve) => gone?.once('exit', resolve));
      let found = new Map([
        ['frontend', pid(frontend)],
        ['history', pid(history)],
        ['matching', pid(gone)], // found, then gone before it is read
      ]);
      const sampler = new MetricsSampler({ everyMs: 10, servicePids: () => found });
      sampler.start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      found = new Map([['frontend', pid(frontend)]]); // history killed, not yet back
      await new Promise((resolve) => setTimeout(resolve, 50));
      const metrics = sampler.stop();
      expect(metrics.samples.every((s) => s.server === undefined && s.services?.frontend?.pid === pid(frontend))).toBe(true);
      const withHistory = metrics.samples.filter((s) => s.services?.history);
      expect(withHistory.length).toBeGreaterThan(0);
      expect(withHistory.length).toBeLessThan(metrics.samples.length);
      expect(Object.keys(metrics.services ?? {})).toEqual(['frontend', 'history']);
      expect(metrics.services?.history?.pids).toEqual([pid(history)]);
      // The whole is the samples that found both, each its two processes summed.
      expect(metrics.server?.samples).toBe(withHistory.length);
      expect(metrics.server?.pids).toEqual([pid(frontend), pid(history)]);
      const sums = withHistory.map((s) => (s.services?.frontend?.rssBytes ?? 0) + (s.services?.history?.rssBytes ?? 0));
      expect(metrics.server?.rssBytes.max).toBe(Math.max(...sums));
    } finally {
      frontend?.kill();
      history?.kill();
    }
  });

  it('refuses to be misused, saying how', () => {
    expect(() => new MetricsSampler({ everyMs: 0 })).toThrow('MetricsSampler: everyMs must be a positive number of ms, got 0');
    const sampler = new MetricsSampler();
    expect(() => sampler.stop()).toThrow('MetricsSampler: stop() before start()');
    sampler.start();
    expect(() => sampler.start()).toThrow('MetricsSampler: already started');
    sampler.stop();
  });
});
