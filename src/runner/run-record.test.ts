import { describe, expect, it } from 'vitest';
import { buildRunView } from '../checks/index.ts';
import { AgentRunHistory } from '../checks/testing/index.ts';
import { buildRunRecord } from './run-record.ts';

function recordOf(run: AgentRunHistory, stoppedBecause?: string) {
  const view = buildRunView(run.loaded());
  return buildRunRecord({
    workflowId: 'wf',
    binary: 'v1',
    startedAt: new Date(0),
    finishedAt: new Date(1_000),
    view,
    historyBytes: [100],
    temporalRunIds: ['r1'],
    invariants: [],
    ...(stoppedBecause ? { stoppedBecause } : {}),
  });
}

describe('buildRunRecord', () => {
  it('gives a failed run the failure message its last execution closed with', () => {
    const run = new AgentRunHistory().turn();
    run.history.failed('the request of turn 2 cannot be brought under the limit', 'PayloadGuard');
    const record = recordOf(run);
    expect(record.outcome).toBe('failed');
    expect(record.executions.at(-1)?.reason).toBe('the request of turn 2 cannot be brought under the limit');
  });

  it("gives a terminated run its termination's reason, and a run longrun stopped the reason it stopped it", () => {
    const terminated = new AgentRunHistory().turn();
    terminated.history.terminated('Workflow history size exceeds limit.', 'history-service');
    expect(recordOf(terminated).executions.at(-1)).toMatchObject({
      closedBy: 'terminated',
      reason: 'Workflow history size exceeds limit.',
    });
    // The limit broke it after turn 1 answered: at turn 2, the one due.
    expect(recordOf(terminated).broke).toEqual({ incident: 'history-size', turn: 2 });
    const open = new AgentRunHistory().turn();
    expect(recordOf(open, 'longrun stopped the run after its timeout of 30 s')).toMatchObject({
      outcome: 'running',
      executions: [{ closedBy: 'running', reason: 'longrun stopped the run after its timeout of 30 s' }],
    });
  });

  it('gives a completed run no reason', () => {
    const completed = recordOf(new AgentRunHistory().turn().complete());
    expect(completed.executions.at(-1)).not.toHaveProperty('reason');
    expect(completed).not.toHaveProperty('broke');
  });
});
