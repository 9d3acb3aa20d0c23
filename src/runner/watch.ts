/**
 * Watching a run until it closes: a run longrun must stop (a workflow task retry loop, a run
 * past its timeout, an interrupt, a dead worker) is terminated, and the reason says why and
 * what it was waiting on, since its history shows no attempt of a pending activity.
 */
import { setMaxListeners } from 'node:events';
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { sleep } from '../shared/sleep.ts';
import { SERVER_DOWN_TOLERANCE_MS, whileServerDown } from './server-retry.ts';

type Description = temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse;

/** Consecutive failed attempts of one workflow task that make a retry loop longrun stops. */
const RETRY_LOOP_ATTEMPTS = 3;
const WATCH_EVERY_MS = 250;

export interface WatchOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Rejects when a worker dies: the run cannot go on. */
  workerFailed: Promise<never>;
}

/** What the watch knows besides the run's description. */
export interface WatchState {
  timeoutMs: number;
  overdue: boolean;
  aborted: boolean;
  workerError?: Error | undefined;
}

/** Waits for the run to close; stops it on a retry loop, a timeout, an abort or a dead worker, and returns why. */
export async function watchRun(client: Client, workflowId: string, options: WatchOptions): Promise<string | undefined> {
  const { timeoutMs, signal } = options;
  const handle = client.workflow.getHandle(workflowId);
  // The result's long poll wakes the watch the moment the run's last execution closes; the
  // describe poll stays for what only it sees (a retry loop, the timeout). It wakes it once: a
  // result that failed for a server restart must not turn the poll into a spin. It is cancelled
  // when the watch ends: a long poll left retrying would outlive the connection.
  const longPoll = new AbortController();
  // Every call of the long poll listens on it while the run lasts: many listeners are the design.
  setMaxListeners(0, longPoll.signal);
  let closed: Promise<void> | undefined = client
    .withAbortSignal(longPoll.signal, () => handle.result())
    .then(
      () => {},
      () => {},
    );
  const deadline = Date.now() + timeoutMs;
  let workerError: Error | undefined;
  options.workerFailed.catch((error: Error) => (workerError = error));
  try {
    for (;;) {
      const description = await whileServerDown(() => handle.describe(), SERVER_DOWN_TOLERANCE_MS);
      if (description.status.name !== 'RUNNING') return undefined;
      const reason = stopReason(description.raw, { timeoutMs, overdue: Date.now() > deadline, aborted: signal.aborted, workerError });
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
    attempt >= RETRY_LOOP_ATTEMPTS
      ? `longrun stopped a workflow task retry loop (attempt ${attempt})`
      : state.overdue
        ? `longrun stopped the run after its timeout of ${Math.round(state.timeoutMs / 1000)} s`
        : state.aborted
          ? 'longrun was interrupted'
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
