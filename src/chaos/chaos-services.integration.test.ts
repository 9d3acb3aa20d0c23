/**
 * The embedded server as four processes (server.topology services: frontend, history, matching,
 * worker on PostgreSQL). services-smoke passes on it; chaos-history-service's SIGKILL of the
 * history service mid-run is survived, every run ending by itself; and the same kill with the
 * service left down past the runs' timeout is reported as runs that did not end, never as "no
 * violation". Each service's memory and CPU is in the summary. No service process is left.
 * Needs PostgreSQL (Debian's postgresql-15); 94 s on two cores at a load average of ~11 (the
 * two scenarios 50 s, the run left down 44 s).
 */
import { describe, expect, it } from 'vitest';
import { resolveScenario, type Scenario } from '../scenario/index.ts';
import { aliveAfter, expectPassed, runChaos, strikes } from './testing/chaos-runs.ts';
import { serviceProcessesLeft } from './testing/processes.ts';

/** A built-in scenario made shorter: fewer turns, the same shape. */
function shortened(name: string, turns: number, more: Partial<Scenario> = {}): Scenario {
  const { scenario } = resolveScenario(name);
  return { ...scenario, shape: { ...scenario.shape, overrides: { ...scenario.shape.overrides, turns } }, ...more };
}

describe('the server as one process per service', () => {
  it('scenarios/services-smoke.yaml passes on the four services', async () => {
    const run = await runChaos(resolveScenario('services-smoke').scenario);
    expect(run.summary.expectations.filter((e) => !e.met)).toEqual([]);
    expect(run.summary.environment).toMatch(/as four processes \(frontend, history, matching, worker/);
    expect(serviceProcessesLeft()).toEqual([]);
  }, 120_000);

  it('chaos-history-service: runs survive the history service killed and restarted mid-run', async () => {
    const run = await runChaos(
      shortened('chaos-history-service', 10, { chaos: [{ action: 'restart-service', service: 'history', atTurn: 3, downFor: '1s' }] }),
    );
    expectPassed(run);
    const detail = strikes(run.events)[0]?.detail ?? '';
    expect(detail).toMatch(/^history service \(pid \d+\) SIGKILLed, down for 1000 ms, ready again \(pid \d+\) \d+ ms after the kill$/);
    expect(run.summary.runs.map((r) => [r.outcome, r.turns.length])).toEqual([
      ['completed', 10],
      ['completed', 10],
    ]);
    const restarted = Number(/ready again \(pid (\d+)\)/.exec(detail)?.[1]);
    // The server's memory and CPU: each of the four services sampled, the history service as both
    // its processes, the server as their sum.
    const { services, server } = run.summary.load ?? {};
    const figures = Object.entries(services ?? {}).map(([name, m]) => [name, m.rssBytes.max > 0, m.cpuPercent !== undefined]);
    expect(figures).toEqual(['frontend', 'history', 'matching', 'worker'].map((name) => [name, true, true]));
    expect(services?.history?.pids.at(-1)).toBe(restarted);
    expect(services?.history?.pids).toHaveLength(2);
    expect(server?.rssBytes.max).toBeGreaterThan(Math.max(...Object.values(services ?? {}).map((m) => m.rssBytes.max)));
    expect(await aliveAfter([restarted])).toEqual([]);
    expect(serviceProcessesLeft()).toEqual([]);
  }, 120_000);

  it('a history service left down past the runs timeout: runs that did not end, not "no violation"', async () => {
    const run = await runChaos(
      shortened('chaos-history-service', 12, {
        name: 'chaos-history-service-down',
        runs: { ...resolveScenario('chaos-history-service').scenario.runs, count: 1, concurrency: 1, timeout: '8s' },
        chaos: [{ action: 'restart-service', service: 'history', atTurn: 2, downFor: '12s' }],
      }),
    );
    expect(run.summary.passed).toBe(false);
    const unmet = Object.fromEntries(run.summary.expectations.filter((e) => !e.met).map((e) => [e.description, e.detail]));
    expect(unmet['on v1: every invariant holds']).toMatch(/^violated: .*run\.liveness/);
    expect(unmet['on v1: every run ends completed']).toMatch(/timed-out/);
    expect(run.summary.runs.map((r) => r.outcome)).toEqual(['timed-out']);
    expect(serviceProcessesLeft()).toEqual([]);
  }, 120_000);
});
