import proto from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { lastTaskFailedOnStore, lastTaskFailedTooLarge, stopReason, type WatchState } from './watch.ts';

const going: WatchState = { timeoutMs: 15_000, overdue: false, aborted: false };
const compacting = {
  pendingActivities: [
    {
      activityType: { name: 'kernel.compact_context' },
      attempt: 14,
      lastFailure: { message: 'compaction model answered HTTP 500\n    at the stack' },
    },
    { activityType: { name: 'kernel.call_model' } },
  ],
};

describe('stopReason', () => {
  it('lets a run go on while nothing is wrong', () => {
    expect(stopReason({ pendingWorkflowTask: { attempt: 2 } }, going)).toBeUndefined();
  });

  it('stops a workflow task retry loop at its third attempt', () => {
    expect(stopReason({ pendingWorkflowTask: { attempt: 3 } }, going)).toBe('longrun stopped a workflow task retry loop (attempt 3)');
  });

  it('lets a task retried while External Storage cannot be reached go on past the third attempt, until the timeout', () => {
    expect(stopReason({ pendingWorkflowTask: { attempt: 9 } }, { ...going, storeUnreachable: true })).toBeUndefined();
    expect(stopReason({ pendingWorkflowTask: { attempt: 9 } }, { ...going, storeUnreachable: true, overdue: true })).toBe(
      'longrun stopped the run after its timeout of 15 s',
    );
  });

  it('stops a task that failed for a payload past the blob limit at its first retry, and no other', () => {
    expect(stopReason({ pendingWorkflowTask: { attempt: 2 } }, { ...going, payloadsTooLarge: true })).toBe(
      'longrun stopped a workflow task that failed with PAYLOADS_TOO_LARGE (TMPRL1103) at its retry (attempt 2)',
    );
    expect(stopReason({ pendingWorkflowTask: { attempt: 1 } }, { ...going, payloadsTooLarge: true })).toBeUndefined();
  });

  it('stops a run past its timeout, naming the activities it waited on and their last failure', () => {
    expect(stopReason(compacting, { ...going, overdue: true })).toBe(
      'longrun stopped the run after its timeout of 15 s; pending: kernel.compact_context attempt 14 (last failure: compaction model answered HTTP 500), kernel.call_model attempt 1',
    );
  });

  it('stops every run on an interrupt, and on a dead worker with its error', () => {
    expect(stopReason({}, { ...going, aborted: true })).toBe('longrun was interrupted');
    expect(stopReason({}, { ...going, workerError: new Error('worker v1 exited with code 1') })).toBe(
      "longrun's worker died: worker v1 exited with code 1",
    );
  });

  it('names the retry loop before the timeout and the timeout before an interrupt', () => {
    expect(stopReason({ pendingWorkflowTask: { attempt: 5 } }, { ...going, overdue: true, aborted: true })).toMatch(/retry loop/);
    expect(stopReason({}, { ...going, overdue: true, aborted: true })).toMatch(/after its timeout/);
  });
});

describe('lastTaskFailedTooLarge', () => {
  const { EventType, WorkflowTaskFailedCause } = proto.temporal.api.enums.v1;
  const failed = (cause: number) => ({
    eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
    workflowTaskFailedEventAttributes: { cause },
  });
  const tooLarge = failed(WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE);
  const scheduled = { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED };

  it('says yes when the last closed task failed with PAYLOADS_TOO_LARGE', () => {
    expect(lastTaskFailedTooLarge([scheduled, tooLarge])).toBe(true);
  });

  it('says no for another cause, and for an older failure that a later task closed over', () => {
    expect(lastTaskFailedTooLarge([scheduled, failed(WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR)])).toBe(
      false,
    );
    expect(lastTaskFailedTooLarge([scheduled, { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT }, tooLarge])).toBe(false);
    expect(lastTaskFailedTooLarge([scheduled, { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED }, tooLarge])).toBe(false);
  });
});

describe('lastTaskFailedOnStore', () => {
  const { EventType } = proto.temporal.api.enums.v1;
  const failedWith = (message: string) => ({
    eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
    workflowTaskFailedEventAttributes: { failure: { message } },
  });

  it("says yes when the last closed task failed on the S3 driver's store or retrieve, and no otherwise", () => {
    expect(lastTaskFailedOnStore([failedWith('S3StorageDriver store failed [bucket=b, key=k]')])).toBe(true);
    expect(lastTaskFailedOnStore([failedWith('S3StorageDriver retrieve failed [bucket=b, key=k]')])).toBe(true);
    expect(lastTaskFailedOnStore([failedWith('TypeError: x is undefined')])).toBe(false);
    expect(
      lastTaskFailedOnStore([{ eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED }, failedWith('S3StorageDriver store failed')]),
    ).toBe(false);
  });
});
