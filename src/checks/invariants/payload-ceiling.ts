import type { HistoryEvent } from '../history/model.ts';
import type { Execution } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, judge } from '../verdict.ts';

/** The activity type an activity event concerns, for evidence. */
function activityLabel(execution: Execution, event: HistoryEvent): string {
  const { attrs } = event;
  if (attrs.kind === 'activity-scheduled') return ` ${attrs.activityType}`;
  if (attrs.kind === 'activity-closed' || attrs.kind === 'activity-started') {
    const activity = execution.activities.find((a) => a.scheduled.id === attrs.scheduledEventId);
    return activity ? ` ${activity.type}` : '';
  }
  return '';
}

export const payloadCeiling: HistoryInvariant = {
  id: 'payload.ceiling',
  appliesTo: 'any-workflow',
  description: 'no payload of any event reaches the blob limit',
  check(run, ctx) {
    const limit = ctx.limits.blobLimitBytes;
    const failures: string[] = [];
    let count = 0;
    // Named only when told: finding an activity's type searches the execution's activities.
    const where = (execution: Execution, event: HistoryEvent, field: string) =>
      `${run.at(execution, event.id)}: ${event.type}${activityLabel(execution, event)} ${field}`;
    let largest: { execution: Execution; event: HistoryEvent; field: string; bytes: number } | undefined;
    for (const execution of run.executions) {
      for (const event of execution.history.events) {
        for (const field of event.payloads) {
          count++;
          if (!largest || field.bytes > largest.bytes) largest = { execution, event, field: field.field, bytes: field.bytes };
          if (field.bytes >= limit)
            failures.push(`${where(execution, event, field.field)} ${bytes(field.bytes)} bytes >= limit ${bytes(limit)}`);
        }
      }
    }
    const notes = largest
      ? [
          `${count} payloads; largest ${where(largest.execution, largest.event, largest.field)} ${bytes(largest.bytes)} bytes (limit ${bytes(limit)}, headroom ${bytes(limit - largest.bytes)})`,
        ]
      : ['no payloads'];
    return judge(this.id, failures, notes, true);
  },
};
