import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Environment, startEnvironment } from '../environment/index.ts';
import { MetricsSampler } from './metrics-sampler.ts';
import { findEmbeddedServerPid, serverPidFinder } from './server-process.ts';

let env: Environment;
beforeAll(async () => {
  env = await startEnvironment();
});
afterAll(async () => env?.teardown());

/** RSS of a process as ps reports it, bytes: a reading independent of ours. */
function psRssBytes(pid: number): number {
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}

describe('MetricsSampler on the embedded server', () => {
  it('samples the real RSS and CPU of the server process and of this process', async () => {
    const serverPid = findEmbeddedServerPid(env.address);
    expect(serverPid).toBeGreaterThan(0);
    const sampler = new MetricsSampler({ everyMs: 20, serverPid: serverPidFinder(env) });
    sampler.start();
    // Give the server some work while sampling.
    for (let i = 0; i < 20; i++) await env.client.workflowService.describeNamespace({ namespace: env.namespace });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const metrics = sampler.stop();

    expect(metrics.samples.length).toBeGreaterThanOrEqual(3);
    for (const sample of metrics.samples) {
      expect(sample.server?.pid).toBe(serverPid);
      expect(sample.server?.rssBytes).toBeGreaterThan(0);
      expect(sample.server?.cpuSeconds).toBeGreaterThan(0);
      expect(sample.worker.pid).toBe(process.pid);
      expect(sample.worker.rssBytes).toBeGreaterThan(0);
      expect(sample.worker.cpuSeconds).toBeGreaterThan(0);
    }
    // Ours agrees with ps within 10 % (the server is near idle: its RSS barely moves).
    const last = metrics.samples.at(-1);
    const ps = psRssBytes(serverPid as number);
    expect(Math.abs((last?.server?.rssBytes ?? 0) - ps)).toBeLessThan(ps / 10);
    expect(metrics.server?.pids).toEqual([serverPid]);
    expect(metrics.server?.rssGrowthMbPerHour).toEqual(expect.any(Number));
    expect(metrics.worker.rssBytes.max).toBeGreaterThanOrEqual(metrics.worker.rssBytes.first);
    // Cumulative CPU never goes backwards.
    const cpu = metrics.samples.map((s) => s.server?.cpuSeconds ?? 0);
    expect(cpu).toEqual([...cpu].sort((a, b) => a - b));
  });
});
