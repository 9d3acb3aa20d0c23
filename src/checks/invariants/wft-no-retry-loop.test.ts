import { describe, expect, it } from 'vitest';
import { AgentRunHistory, resultOf } from '../testing/index.ts';

describe('wft.no-retry-loop', () => {
  it('passes a run whose one failed workflow task recovers', () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTaskFailed('NON_DETERMINISTIC_ERROR');
    run.turn().complete();
    const result = resultOf(run, 'wft.no-retry-loop');
    expect(result).toMatchObject({ status: 'pass', evidence: ['1 failed workflow tasks'] });
  });

  it('fails on any PAYLOADS_TOO_LARGE cause, even one that recovered', () => {
    const run = new AgentRunHistory().turn();
    const failed = run.history.workflowTaskFailed(
      'PAYLOADS_TOO_LARGE',
      '[TMPRL1103] Attempted to upload payloads with size that exceeded the error limit.',
    );
    run.turn().complete();
    const result = resultOf(run, 'wft.no-retry-loop');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe(
      `event ${failed}: WorkflowTaskFailed cause PAYLOADS_TOO_LARGE: [TMPRL1103] Attempted to upload payloads with size that exceeded the error limit.`,
    );
  });

  it('fails on an activity failed as PayloadsTooLarge', () => {
    const run = new AgentRunHistory();
    const scheduled = run.history.activityScheduled('run_tool', { runId: 'run-0001', turn: 1, call: { id: 'c' } });
    run.history.activityFailed(scheduled, '[TMPRL1103] result too large', 'PayloadsTooLarge');
    expect(resultOf(run, 'wft.no-retry-loop').evidence[0]).toBe(
      `event ${run.history.lastEventId}: ActivityTaskFailed with PayloadsTooLarge: [TMPRL1103] result too large`,
    );
  });

  it('fails on N consecutive failed workflow tasks (N from the context)', () => {
    const run = new AgentRunHistory().turn();
    const first = run.history.workflowTaskFailed('UNHANDLED_COMMAND');
    run.history.workflowTaskFailed('UNHANDLED_COMMAND');
    run.history.workflowTaskFailed('UNHANDLED_COMMAND');
    run.turn().complete();
    expect(resultOf(run, 'wft.no-retry-loop').evidence[0]).toBe(`event ${first}: 3 consecutive WorkflowTaskFailed (a retry loop; limit 3)`);
    expect(resultOf(run, 'wft.no-retry-loop', { workflowTaskFailureRun: 4 }).status).toBe('pass');
  });

  it('passes a task retried while External Storage could not be reached that then completed, and fails the same retries for another cause', () => {
    const storeDown = 'S3StorageDriver store failed [bucket=longrun, key=v0/d/sha256/ab12]';
    const waited = new AgentRunHistory().turn();
    const failed = waited.history.workflowTaskFailed('WORKFLOW_WORKER_UNHANDLED_FAILURE', storeDown);
    const retried = waited.history.workflowTask({ attempt: 5 });
    waited.turn().complete();
    const result = resultOf(waited, 'wft.no-retry-loop');
    expect(result.status).toBe('pass');
    expect(result.evidence[1]).toBe(
      `retried while External Storage could not be reached, then went on (no loop): event ${retried - 2}: attempt 5, after event ${failed} cause WORKFLOW_WORKER_UNHANDLED_FAILURE: ${storeDown}`,
    );

    const looped = new AgentRunHistory().turn();
    looped.history.workflowTaskFailed('WORKFLOW_WORKER_UNHANDLED_FAILURE', 'TypeError: x is undefined');
    const again = looped.history.workflowTask({ attempt: 5 });
    looped.turn().complete();
    expect(resultOf(looped, 'wft.no-retry-loop').evidence[0]).toBe(
      `event ${again - 2}: WorkflowTaskScheduled attempt 5 (a retry loop; limit 3)`,
    );

    // A store that never came back leaves the task retrying: not waited out.
    const stuck = new AgentRunHistory().turn();
    stuck.history.workflowTaskFailed('WORKFLOW_WORKER_UNHANDLED_FAILURE', storeDown);
    stuck.history.terminated('longrun stopped the run after its timeout of 60 s', 'longrun-harness');
    expect(resultOf(stuck, 'wft.no-retry-loop').status).toBe('fail');
  });

  it('fails when the history ends in a failed task that never completed again', () => {
    const run = new AgentRunHistory().turn();
    const failed = run.history.workflowTaskFailed('WORKFLOW_WORKER_UNHANDLED_FAILURE', '[TMPRL1101] Potential deadlock detected');
    run.history.terminated('stuck', 'longrun-harness');
    expect(resultOf(run, 'wft.no-retry-loop').evidence[0]).toBe(
      `event ${failed}: WorkflowTaskFailed cause WORKFLOW_WORKER_UNHANDLED_FAILURE: [TMPRL1101] Potential deadlock detected, and no workflow task completed after it (the task is retrying)`,
    );
  });

  it('passes a task the server closed because the run was terminated under it', () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTaskFailed('FORCE_CLOSE_COMMAND');
    run.history.terminated('longrun was interrupted', 'longrun-harness');
    expect(resultOf(run, 'wft.no-retry-loop')).toMatchObject({
      status: 'pass',
      evidence: ['0 failed workflow tasks', '1 closed by the server for a termination or reset'],
    });
  });

  it('fails on a workflow task scheduled at attempt N', () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTaskFailed('UNHANDLED_COMMAND', 'boom', 5);
    run.turn();
    expect(resultOf(run, 'wft.no-retry-loop').evidence[0]).toMatch(/WorkflowTaskScheduled attempt 5/);
  });

  it('fails a workflow task scheduled at exactly the attempt limit, and passes one scheduled below it', () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTaskFailed('UNHANDLED_COMMAND', 'boom', 3);
    run.turn();
    expect(resultOf(run, 'wft.no-retry-loop').evidence[0]).toMatch(/WorkflowTaskScheduled attempt 3 \(a retry loop; limit 3\)$/);
    expect(resultOf(run, 'wft.no-retry-loop', { workflowTaskFailureRun: 4 }).status).toBe('pass');
  });

  it('judges a failed workflow task the server wrote without a failure', () => {
    /** A WorkflowTaskFailed as the server writes it for its own causes: a cause and no failure. */
    const bare = (run: AgentRunHistory, cause: string): number => {
      const scheduled = run.history.event('WorkflowTaskScheduled', { startToCloseTimeout: '10s', attempt: 1 });
      const started = run.history.event('WorkflowTaskStarted', { scheduledEventId: String(scheduled) });
      return run.history.event('WorkflowTaskFailed', {
        scheduledEventId: String(scheduled),
        startedEventId: String(started),
        cause: `WORKFLOW_TASK_FAILED_CAUSE_${cause}`,
      });
    };
    const tooLarge = new AgentRunHistory().turn();
    const failed = bare(tooLarge, 'PAYLOADS_TOO_LARGE');
    tooLarge.turn().complete();
    expect(resultOf(tooLarge, 'wft.no-retry-loop').evidence).toEqual([
      `event ${failed}: WorkflowTaskFailed cause PAYLOADS_TOO_LARGE`,
      '1 failed workflow tasks',
    ]);

    const stuck = new AgentRunHistory().turn();
    const last = bare(stuck, 'UNHANDLED_COMMAND');
    stuck.history.terminated('stuck', 'longrun-harness');
    expect(resultOf(stuck, 'wft.no-retry-loop').evidence[0]).toBe(
      `event ${last}: WorkflowTaskFailed cause UNHANDLED_COMMAND, and no workflow task completed after it (the task is retrying)`,
    );

    // Retried to the limit after a failure that names no store: a loop, not an outage waited out.
    const retried = new AgentRunHistory().turn();
    bare(retried, 'UNHANDLED_COMMAND');
    const again = retried.history.workflowTask({ attempt: 5 });
    retried.turn().complete();
    expect(resultOf(retried, 'wft.no-retry-loop').evidence[0]).toBe(
      `event ${again - 2}: WorkflowTaskScheduled attempt 5 (a retry loop; limit 3)`,
    );
  });
});
