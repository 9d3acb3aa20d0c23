import type { HistoryEvent } from '../history/model.ts';
import { isPayloadTooLarge, storeUnreachable } from '../incidents.ts';
import { type HistoryInvariant, judge } from '../verdict.ts';

/**
 * The cause the server writes when it closes a started task because the run was terminated or
 * reset under it: the server's bookkeeping, not an attempt that failed.
 */
export const FORCE_CLOSED = 'FORCE_CLOSE_COMMAND';

/** ` cause X: the failure's text`, so that a stuck task says why it failed. */
function causeOf(event: HistoryEvent): string {
  if (event.attrs.kind !== 'workflow-task-failed') return '';
  const text = event.attrs.failure?.text ?? '';
  return ` cause ${event.attrs.cause}${text ? `: ${text}` : ''}`;
}

export const wftNoRetryLoop: HistoryInvariant = {
  id: 'wft.no-retry-loop',
  appliesTo: 'any-workflow',
  readsPayloads: false,
  description: 'no WorkflowTaskFailed loops; no PAYLOADS_TOO_LARGE cause at all',
  check(run, ctx) {
    const loop = ctx.workflowTaskFailureRun;
    const failures: string[] = [];
    let failedTasks = 0;
    let forceClosed = 0;
    const outages: string[] = [];
    for (const execution of run.executions) {
      const at = (event: HistoryEvent) => run.at(execution, event.id);
      let streak: HistoryEvent[] = [];
      // The failure before the task now scheduled: Temporal writes one, then retries without events.
      let lastFailure: HistoryEvent | undefined;
      const endStreak = (): void => {
        if (streak.length >= loop) {
          failures.push(`${at(streak[0] as HistoryEvent)}: ${streak.length} consecutive WorkflowTaskFailed (a retry loop; limit ${loop})`);
        }
        streak = [];
      };
      for (const event of execution.history.events) {
        const { attrs } = event;
        if (attrs.kind === 'workflow-task-failed' && attrs.cause === FORCE_CLOSED) {
          forceClosed++;
        } else if (attrs.kind === 'workflow-task-failed') {
          failedTasks++;
          streak.push(event);
          lastFailure = event;
          if (isPayloadTooLarge(event)) {
            failures.push(`${at(event)}: WorkflowTaskFailed${causeOf(event)}`);
          }
        } else if (attrs.kind === 'workflow-task') {
          if (attrs.phase === 'completed') endStreak();
          if (attrs.phase === 'scheduled' && (attrs.attempt ?? 1) >= loop) {
            // Retried while External Storage was down, and scheduled again: the run waited the outage out.
            const outage = lastFailure?.attrs.kind === 'workflow-task-failed' && storeUnreachable(lastFailure.attrs.failure?.text);
            if (outage)
              outages.push(
                `${at(event)}: attempt ${attrs.attempt}, after ${at(lastFailure as HistoryEvent)}${causeOf(lastFailure as HistoryEvent)}`,
              );
            else failures.push(`${at(event)}: WorkflowTaskScheduled attempt ${attrs.attempt} (a retry loop; limit ${loop})`);
          }
        } else if (attrs.kind === 'activity-closed' && isPayloadTooLarge(event)) {
          failures.push(`${at(event)}: ${event.type} with PayloadsTooLarge: ${attrs.failure?.text ?? ''}`.trimEnd());
        }
      }
      const stuck = streak[0];
      if (stuck && streak.length < loop) {
        failures.push(`${at(stuck)}: WorkflowTaskFailed${causeOf(stuck)}, and no workflow task completed after it (the task is retrying)`);
      }
      endStreak();
    }
    const notes = [
      `${failedTasks} failed workflow tasks`,
      ...outages.map((outage) => `retried while External Storage could not be reached, then went on (no loop): ${outage}`),
      ...(forceClosed > 0 ? [`${forceClosed} closed by the server for a termination or reset`] : []),
    ];
    return judge(this.id, failures, notes, true);
  },
};
