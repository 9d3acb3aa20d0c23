import type { HistoryEvent } from '../history/model.ts';
import { type HistoryInvariant, judge } from '../verdict.ts';

/** Work started and not closed when the execution continued as new. */
function pendingAtEnd(events: readonly HistoryEvent[]): string[] {
  const open = new Map<number, string>();
  for (const event of events) {
    const { attrs } = event;
    if (attrs.kind === 'activity-scheduled') open.set(event.id, `activity ${attrs.activityType}`);
    else if (attrs.kind === 'timer-started') open.set(event.id, `timer ${attrs.timerId}`);
    else if (attrs.kind === 'child-initiated') open.set(event.id, `child workflow ${attrs.workflowType}`);
    else if (attrs.kind === 'external-initiated') open.set(event.id, event.type);
    else if (attrs.kind === 'activity-closed') open.delete(attrs.scheduledEventId);
    else if (attrs.kind === 'timer-closed') open.delete(attrs.startedEventId);
    else if (attrs.kind === 'child-closed' || attrs.kind === 'external-closed') open.delete(attrs.initiatedEventId);
  }
  return [...open].map(([id, what]) => `${what} (event ${id})`);
}

export const canCleanBoundary: HistoryInvariant = {
  id: 'can.clean-boundary',
  appliesTo: 'any-workflow',
  readsPayloads: false,
  description: 'at ContinueAsNew nothing is pending (activities, timers, children)',
  check(run) {
    const failures: string[] = [];
    const notes: string[] = [];
    for (const execution of run.executions) {
      if (execution.end?.kind !== 'continued-as-new') continue;
      const where = `${run.at(execution, execution.end.event.id)}: ContinueAsNew`;
      const pending = pendingAtEnd(execution.history.events);
      if (pending.length > 0) failures.push(`${where} with pending ${pending.join(', ')}`);
      else notes.push(`${where} with nothing pending`);
    }
    const exercised = notes.length + failures.length > 0;
    if (!exercised) notes.push('no ContinueAsNew');
    return judge(this.id, failures, notes, exercised);
  },
};
