/**
 * A Temporal server restart, network faults through Toxiproxy, and the mocks' model faults, each
 * in the middle of runs (faults that cost tasks their timeouts, such as a reset of the workers'
 * gRPC connection, are in scenarios/chaos-network.yaml): every run ends by itself, every invariant holds, turns are neither lost
 * nor done twice, and no process the runner started is left. About a minute on two cores.
 */
import type { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { expectPassed, RUNS_OUTLAST_A_LOST_TASK, runChaos, smallScenario, strikes } from './testing/chaos-runs.ts';

describe('chaos around the workers', () => {
  it('restart-server: the embedded server (SQLite file) stops mid-run and comes back on the same port', async () => {
    const run = await runChaos(
      smallScenario('chaos-test-restart', {
        runs: RUNS_OUTLAST_A_LOST_TASK,
        chaos: [{ action: 'restart-server', atTurn: 5, downFor: '1s' }],
      }),
    );
    expectPassed(run);
    expect(strikes(run.events)[0]?.detail).toMatch(/^server down for 1000 ms, answering again \d+ ms after the stop$/);
    expect(run.summary.runs.every((r) => r.outcome === 'completed' && r.turns.length === 14)).toBe(true);
  }, 300_000);

  it('network: latency and a narrow pipe to the frontend, the model link reset and down, through Toxiproxy', async () => {
    const run = await runChaos(
      smallScenario('chaos-test-network', {
        chaos: [
          { action: 'network', atTurn: 2, link: 'worker-temporal', fault: 'latency', latencyMs: 100, jitterMs: 20, for: '1s' },
          { action: 'network', atTurn: 4, link: 'activities-model', fault: 'reset_peer', for: '1s' },
          { action: 'network', atTurn: 7, link: 'activities-model', fault: 'down', for: '1500ms' },
          { action: 'network', atTurn: 10, link: 'worker-temporal', fault: 'bandwidth', rateKBps: 64, for: '1s' },
        ],
      }),
    );
    expectPassed(run);
    expect(strikes(run.events).map((s) => s.step)).toEqual([0, 1, 2, 3]);
  });

  it('model faults from the mocks (429, 5xx, malformed, truncated, a hang, a reset; a failing compaction model) under a worker crash', async () => {
    const once = (turn: number) => ({ turns: [turn], attempts: [1] });
    const retriedTurns: number[] = [];
    const run = await runChaos(
      smallScenario('chaos-test-model', {
        faults: {
          agent: [
            { fault: { kind: 'http-429' }, when: once(2) },
            { fault: { kind: 'http-503' }, when: once(3) },
            { fault: { kind: 'http-500' }, when: once(4) },
            { fault: { kind: 'malformed-json' }, when: once(6) },
            { fault: { kind: 'truncated-stream' }, when: once(8) },
            { fault: { kind: 'timeout', maxHangMs: 500 }, when: once(9) },
            { fault: { kind: 'reset' }, when: once(12) },
            { fault: { kind: 'latency', ms: 200 } },
          ],
          compaction: [{ fault: { kind: 'http-500' } }],
        },
        chaos: [{ action: 'kill-worker', atTurn: 7 }],
      }),
      { onHistories: async (_, histories) => void retriedTurns.push(...retriedModelTurns(await histories())) },
    );
    expectPassed(run);
    // Each faulted turn's model call succeeded on its second attempt, once per run.
    expect(retriedTurns.sort((a, b) => a - b)).toEqual([2, 2, 3, 3, 4, 4, 6, 6, 8, 8, 9, 9, 12, 12]);
    for (const record of run.summary.runs) {
      expect(record.outcome).toBe('completed');
      expect(record.compactions.length).toBeGreaterThan(0);
      expect(record.compactions.every((c) => !c.ok)).toBe(true);
    }
  });
});

/** Turns whose call_model was attempted more than once, read from the histories. */
function retriedModelTurns(histories: readonly temporal.api.history.v1.IHistory[]): number[] {
  return histories.flatMap((history) => {
    const events = history.events ?? [];
    const scheduled = new Map(events.map((e) => [Number(e.eventId), e.activityTaskScheduledEventAttributes]));
    return events.flatMap((event) => {
      const started = event.activityTaskStartedEventAttributes;
      const activity = started ? scheduled.get(Number(started.scheduledEventId)) : undefined;
      if (!started || (started.attempt ?? 1) < 2 || activity?.activityType?.name !== 'call_model') return [];
      const input = JSON.parse(Buffer.from(activity.input?.payloads?.[0]?.data ?? []).toString()) as { turn: number };
      return [input.turn];
    });
  });
}
