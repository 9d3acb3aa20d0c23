/**
 * The history-count scenario end to end on the real server: twenty small tool calls a turn.
 * v1, which continues as new only on its byte budget, is terminated by the event-count limit and
 * reported as the history-count incident (and fails the checks that watch history limits); v2
 * continues as new on the server's suggestion, holds every invariant, and replays v1's histories.
 */
import { describe, expect, it } from 'vitest';
import { resolveScenario, runScenario } from '../src/index.ts';

describe('the history-count scenario', () => {
  it('terminates v1 as the history-count incident, holds every invariant on v2, and replays v1 on v2', async () => {
    const { scenario } = resolveScenario('history-count');
    const summary = await runScenario(scenario);
    expect(summary.expectations.map((e) => [e.description, e.met])).toEqual([
      ['on v1: history-count reproduces', true],
      ['on v1: its histories replay on v1, v2', true],
      ['on v2: every invariant holds', true],
      ['on v2: every run ends completed', true],
    ]);
    expect(summary.passed).toBe(true);

    const v1 = summary.runs.filter((run) => run.binary === 'v1');
    const v2 = summary.runs.filter((run) => run.binary === 'v2');
    expect(v1.length).toBeGreaterThan(0);
    expect(v2.length).toBeGreaterThan(0);
    for (const run of v1) {
      expect(run.outcome).toBe('terminated');
      expect(run.executions.at(-1)?.reason).toBe('Workflow history count exceeds limit.');
      expect(run.incidents).toEqual(['history-count']);
      // The checks that can fail on v2 do fail here: v1 under the scenario does not hold.
      const failed = run.invariants.filter((i) => i.status === 'fail').map((i) => i.id);
      expect(failed).toEqual(expect.arrayContaining(['history.no-termination', 'history.continue-as-new']));
      expect(run.invariants.find((i) => i.id === 'replay.cross-version')).toMatchObject({
        status: 'pass',
        evidence: ['replayed on v1: identical', 'replayed on v2: identical'],
      });
    }
    for (const run of v2) {
      expect(run.outcome).toBe('completed');
      expect(run.incidents).toEqual([]);
      expect(run.executions.length).toBeGreaterThan(1);
      const limit = scenario.server.dynamicConfig['limit.historyCount.error'] as number;
      for (const execution of run.executions) expect(execution.events).toBeLessThan(limit);
      const continued = run.invariants.find((i) => i.id === 'history.continue-as-new');
      expect(continued?.status).toBe('pass');
      expect(continued?.evidence[0]).toMatch(/under the budget [\d,]+; the server suggested ContinueAsNew at execution 1 event \d+/);
    }
  }, 300_000); // ~40 s alone; 1,500 activities a binary take minutes on two loaded cores (the scenario's timeout is 3m)
});
