/**
 * Watching a run until it closes: a run longrun must stop (a workflow task retry loop, a run
 * past its timeout, an interrupt, a dead worker) is terminated, and the reason says why and
 * what it was waiting on, since its history shows no attempt of a pending activity. A workflow
 * task that failed for a payload past the blob limit (TMPRL1103) is stopped at its first
 * retry: the same task can only fail the same way again, and the failure is already in the
 * history for the checks.
 */

import { setMaxListeners } from 'node:events';
import type { Client } from '@temporalio/client';
import proto, { type temporal } from '@temporalio/proto';
import { storeUnreachable } from '../checks/incidents.ts';
import { INTERRUPTED } from '../contract/interrupted.ts';
import { sleep } from '../shared/sleep.ts';
import { SERVER_DOWN_TOLERANCE_MS, whileServerDown } from './server-retry.ts';

type Description = temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse;

// The reason of a run stopped because longrun was interrupted: the partial summary's, not the run's.
export { INTERRUPTED };

/** Consecutive failed attempts of one workflow task that make a retry loop longrun stops. */
const RETRY_LOOP_ATTEMPTS = 3;
const WATCH_EVERY_MS = 250;

export interface WatchOptions {
  timeoutMs: number;
  /** When the run started, if before the watch (a watch taken over): its timeout counts from then. */
  since?: Date;
  signal: AbortSignal;
  /** Rejects when a worker dies: the run cannot go on. */
  workerFailed: Promise<never>;
  /**
   * Resolves when the run's last execution has closed (the history stream's `closed`); without
   * it, the watch long-polls the run's result for the same.
   */
  closed?: Promise<void>;
}

/** What the watch knows besides the run's description. */
export interface WatchState {
  timeoutMs: number;
  overdue: boolean;
  aborted: boolean;
  workerError?: Error | undefined;
  /** The pending workflow task retries one that failed with PAYLOADS_TOO_LARGE. */
  payloadsTooLarge?: boolean;
  /** The pending workflow task retries one that failed because External Storage could not be reached: the run waits (until its timeout). */
  storeUnreachable?: boolean;
}

const { WorkflowTaskFailedCause, EventType } = proto.temporal.api.enums.v1;
/** Enough of the history's end to hold the last closed workflow task and what the server added after it. */
const TAIL_EVENTS = 8;

/**
 * Whether the run's last closed workflow task failed for a payload past the blob limit, from
 * its history's newest events first: a task that completed or timed out since an older failure
 * says no.
 */
export function lastTaskFailedTooLarge(newestFirst: readonly temporal.api.history.v1.IHistoryEvent[]): boolean {
  return lastTaskFailed(newestFirst)?.cause === WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE;
}

/** Whether the run's last closed workflow task failed because External Storage could not be reached (storeUnreachable). */
export function lastTaskFailedOnStore(newestFirst: readonly temporal.api.history.v1.IHistoryEvent[]): boolean {
  return storeUnreachable(lastTaskFailed(newestFirst)?.failure?.message ?? undefined);
}

function lastTaskFailed(newestFirst: readonly temporal.api.history.v1.IHistoryEvent[]) {
  const closed = newestFirst.find((event) => TASK_CLOSED.has(event.eventType ?? 0));
  return closed?.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED ? closed.workflowTaskFailedEventAttributes : undefined;
}

const TASK_CLOSED = new Set<number>([
  EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
  EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
  EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT,
]);

async function historyEnd(client: Client, workflowId: string, runId: string | undefined): Promise<temporal.api.history.v1.IHistoryEvent[]> {
  const { history } = await client.workflowService.getWorkflowExecutionHistoryReverse({
    namespace: client.options.namespace,
    execution: { workflowId, ...(runId ? { runId } : {}) },
    maximumPageSize: TAIL_EVENTS,
  });
  return history?.events ?? [];
}

/** Waits for the run to close; stops it on a retry loop, a timeout, an abort or a dead worker, and returns why. */
export async function watchRun(client: Client, workflowId: string, options: WatchOptions): Promise<string | undefined> {
  const { timeoutMs, signal } = options;
  const handle = client.workflow.getHandle(workflowId);
  // A long poll (the history stream's, or the result's) wakes the watch the moment the run's last
  // execution closes; the describe poll stays for what only it sees (a retry loop, the timeout).
  // It wakes it once: a result that failed for a server restart must not turn the poll into a
  // spin. It is cancelled when the watch ends: a long poll left retrying would outlive the connection.
  const longPoll = new AbortController();
  // Every call of the long poll listens on it while the run lasts: many listeners are the design.
  setMaxListeners(0, longPoll.signal);
  let closed: Promise<void> | undefined =
    options.closed ??
    client
      .withAbortSignal(longPoll.signal, () => handle.result())
      .then(
        () => {},
        () => {},
      );
  const deadline = (options.since?.getTime() ?? Date.now()) + timeoutMs;
  let workerError: Error | undefined;
  options.workerFailed.catch((error: Error) => (workerError = error));
  // The retry attempt whose failed predecessor was read, so the history's end is read once per attempt.
  let attemptRead = 1;
  let payloadsTooLarge = false;
  let storeDown = false;
  try {
    for (;;) {
      const description = await whileServerDown(() => handle.describe(), SERVER_DOWN_TOLERANCE_MS);
      if (description.status.name !== 'RUNNING') return undefined;
      const attempt = description.raw.pendingWorkflowTask?.attempt ?? 1;
      if (attempt <= 1) {
        attemptRead = 1;
        payloadsTooLarge = false;
        storeDown = false;
      } else if (attempt > attemptRead) {
        attemptRead = attempt;
        const end = await whileServerDown(() => historyEnd(client, workflowId, description.runId), SERVER_DOWN_TOLERANCE_MS).catch(
          () => [],
        );
        payloadsTooLarge = lastTaskFailedTooLarge(end);
        storeDown = lastTaskFailedOnStore(end);
      }
      const reason = stopReason(description.raw, {
        timeoutMs,
        overdue: Date.now() > deadline,
        aborted: signal.aborted,
        workerError,
        payloadsTooLarge,
        storeUnreachable: storeDown,
      });
      if (reason) {
        await whileServerDown(() => handle.terminate(reason), SERVER_DOWN_TOLERANCE_MS).catch(() => {});
        return reason;
      }
      const pause = sleep(WATCH_EVERY_MS, signal.aborted ? undefined : signal);
      if (closed) await Promise.race([pause, closed.then(() => (closed = undefined))]);
      else await pause;
    }
  } finally {
    longPoll.abort();
  }
}

/** Why a running run must be stopped, with what it waited on; undefined while it may go on. */
export function stopReason(description: Description, state: WatchState): string | undefined {
  const attempt = description.pendingWorkflowTask?.attempt ?? 0;
  const why =
    state.payloadsTooLarge && attempt >= 2
      ? `longrun stopped a workflow task that failed with PAYLOADS_TOO_LARGE (TMPRL1103) at its retry (attempt ${attempt})`
      : attempt >= RETRY_LOOP_ATTEMPTS && !state.storeUnreachable
        ? `longrun stopped a workflow task retry loop (attempt ${attempt})`
        : state.overdue
          ? `longrun stopped the run after its timeout of ${Math.round(state.timeoutMs / 1000)} s`
          : state.aborted
            ? INTERRUPTED
            : state.workerError
              ? `longrun's worker died: ${state.workerError.message}`
              : undefined;
  return why && `${why}${pendingWork(description)}`;
}

/** "; pending: kernel.compact_context attempt 14 (last failure: ...)" for the activities a stopped run waited on. */
function pendingWork(description: Description): string {
  const pending = (description.pendingActivities ?? []).map((activity) => {
    const failure = activity.lastFailure?.message ? ` (last failure: ${activity.lastFailure.message.split('\n')[0]?.slice(0, 200)})` : '';
    return `${activity.activityType?.name ?? 'activity'} attempt ${activity.attempt ?? 1}${failure}`;
  });
  return pending.length > 0 ? `; pending: ${pending.join(', ')}` : '';
}
