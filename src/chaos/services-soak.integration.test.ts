/**
 * scenarios/services-soak.yaml made short: nightly-soak's shapes, limits and faults on the server
 * as four service processes on PostgreSQL, 20 s of starting runs of 12 turns that compact, and
 * the history service SIGKILLed and restarted while runs are in flight. v1's runs all end by
 * themselves, are judged and hold every invariant; the broken control dropped-counts-kept, soaked
 * beside them through the same restart, is caught by rebuild.contract and fails the soak: a run
 * that fails for a reason of its own is not hidden by a restart survived. Needs PostgreSQL
 * (Debian's postgresql-15); 66-81 s on two cores at a load average of 13-21.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../result/index.ts';
import { resolveScenario, type Scenario } from '../scenario/index.ts';
import { runChaos, strikes } from './testing/chaos-runs.ts';
import { serviceProcessesLeft } from './testing/processes.ts';

const CONTROL = 'dropped-counts-kept';
const KILL_AFTER_MS = 10_000;

/**
 * The soak with fewer, shorter runs: 12 turns each, sized (at the soak's scale) to pass the
 * compaction trigger from turn ~5, so that the control's break shows in every run. The soak's
 * thresholds are timings, measured at its full length, not here.
 */
function shortSoak(): Scenario {
  const { soak: _timings, ...scenario } = resolveScenario('services-soak').scenario;
  return {
    ...scenario,
    target: { binaries: ['v1', CONTROL] },
    runs: { ...scenario.runs, concurrency: 2 },
    shape: { ...scenario.shape, overrides: { turns: 12, targetTokens: 800_000 } },
    chaos: [{ action: 'restart-service', service: 'history', after: `${KILL_AFTER_MS / 1000}s`, downFor: '2s' }],
    expect: [...scenario.expect, { on: CONTROL, hold: 'all' }],
  };
}

/** Whether the run was in flight for the whole of [from, to] (epoch ms). */
const spans = (run: RunRecord, from: number, to: number) =>
  Date.parse(run.startedAt) < from && Date.parse(run.startedAt) + run.durationMs > to;

describe('services-soak: nightly-soak on the server as four processes', () => {
  it('v1 runs live through the history service restarted mid-soak and hold; the control beside them is caught', async () => {
    let killedAt = 0;
    let readyAt = 0;
    const run = await runChaos(shortSoak(), {
      durationMs: 20_000,
      onChaosEvent: (event) => {
        if (event.type !== 'strike') return;
        readyAt = Date.now();
        killedAt = readyAt - event.tookMs;
      },
    });
    const { summary } = run;
    const met = Object.fromEntries(summary.expectations.map((e) => [e.description, e]));
    const restart = met[`chaos: restart-service history after ${KILL_AFTER_MS / 1000}s`];

    // The chaos record in the report: the history service was killed and a new one took over.
    expect(restart?.met).toBe(true);
    expect(restart?.detail).toMatch(
      /^at \d+\.\d s \(\d+ ms\): history service \(pid \d+\) SIGKILLed, down for 2000 ms, ready again \(pid \d+\) \d+ ms after the kill$/,
    );
    expect(strikes(run.events)).toHaveLength(1);

    const v1 = summary.runs.filter((r) => r.binary === 'v1');
    const control = summary.runs.filter((r) => r.binary === CONTROL);
    // Mid-run: v1 runs were in flight from before the kill until after the new history process was up.
    expect(v1.filter((r) => spans(r, killedAt, readyAt)).length).toBeGreaterThan(0);
    // Every v1 run ended by itself, whole, judged, and held every invariant.
    expect(v1.length).toBeGreaterThanOrEqual(2);
    expect(v1.map((r) => [r.outcome, r.turns.length])).toEqual(v1.map(() => ['completed', 12]));
    expect(v1.every((r) => r.compactions.some((c) => c.ok))).toBe(true);
    expect(v1.flatMap((r) => r.invariants.filter((i) => i.status === 'fail').map((i) => `${r.runId}: ${i.id}`))).toEqual([]);
    expect(v1.every((r) => r.invariants.some((i) => i.id === 'rebuild.contract' && i.status === 'pass'))).toBe(true);
    expect(met['on v1: every invariant holds']).toMatchObject({ met: true });
    expect(met['on v1: every run ends completed']).toMatchObject({ met: true });
    expect(met['chaos: every run on v1 ended by itself']).toMatchObject({ met: true, detail: 'no run had to be stopped' });

    // The control ran through the same restart, and its own break fails the soak.
    expect(control.length).toBeGreaterThan(0);
    expect(control.filter((r) => spans(r, killedAt, readyAt)).length).toBeGreaterThan(0);
    expect(met[`on ${CONTROL}: every invariant holds`]).toMatchObject({
      met: false,
      detail: expect.stringMatching(/^violated: .*rebuild\.contract/),
    });
    expect(summary.expectations.filter((e) => !e.met).map((e) => e.description)).toEqual([`on ${CONTROL}: every invariant holds`]);
    expect(summary.passed).toBe(false);
    expect(serviceProcessesLeft()).toEqual([]);
  }, 150_000);
});
