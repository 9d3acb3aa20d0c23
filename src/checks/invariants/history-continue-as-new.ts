import { callRequest } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, judge } from '../verdict.ts';

/**
 * Accumulated request bytes of an execution: the sum of the serialized requests of every
 * call_model it scheduled (each scheduled request stays in its history). Once the sum passes the
 * budget, at most `continueAsNewGraceTurns` further call_model may be scheduled before the
 * execution continues as new (or completes); an execution does not continue as new before the
 * sum passes the budget (at exactly the budget is too early); and no execution may reach a
 * history limit.
 */
export const historyContinueAsNew: HistoryInvariant = {
  id: 'history.continue-as-new',
  description: 'an execution continues as new once its accumulated request bytes pass the budget, not before, and before any history limit',
  check(run, ctx) {
    const budget = ctx.limits.continueAsNewBytes;
    const failures: string[] = [];
    const notes: string[] = [];
    let exercised = false;
    for (const execution of run.executions) {
      const at = (id: number) => run.at(execution, id);
      const calls = execution.activities.filter((a) => a.type === run.mapping.activities.callModel);
      let accumulated = 0;
      let unreadable = 0;
      let crossing: { index: number; id: number; accumulated: number } | undefined;
      calls.forEach((call, index) => {
        const request = callRequest(call);
        if (!request) unreadable++;
        accumulated += request?.bytes ?? 0;
        if (!crossing && accumulated > budget) crossing = { index, id: call.scheduled.id, accumulated };
      });
      const historyBytes = execution.history.events.reduce((sum, event) => sum + event.payloads.reduce((s, p) => s + p.bytes, 0), 0);
      const events = execution.history.events.length;
      if (historyBytes >= ctx.historySizeLimitBytes) {
        failures.push(
          `execution ${execution.number}: history payloads reached ${bytes(historyBytes)} bytes >= history size limit ${bytes(ctx.historySizeLimitBytes)}`,
        );
      }
      if (events >= ctx.historyCountLimit) {
        failures.push(`execution ${execution.number}: ${bytes(events)} events >= history count limit ${bytes(ctx.historyCountLimit)}`);
      }
      const end = execution.end;
      if (!crossing) {
        if (end?.kind === 'continued-as-new' && unreadable === 0) {
          // The spec continues as new once the bytes exceed the budget: at or under it is too early.
          exercised = true;
          failures.push(
            `${at(end.event.id)}: ContinueAsNew after ${bytes(accumulated)} request bytes, not over the budget ${bytes(budget)}`,
          );
          continue;
        }
        const how = end?.kind === 'continued-as-new' ? `continued as new at ${at(end.event.id)}` : `ended ${end?.kind ?? 'open'}`;
        const unjudged = unreadable > 0 ? ` (${unreadable} call_model inputs unreadable)` : '';
        notes.push(
          `execution ${execution.number}: ${bytes(accumulated)} request bytes${unjudged}, under the budget ${bytes(budget)}; ${how}`,
        );
        continue;
      }
      exercised = true;
      const passed = `${at(crossing.id)}: accumulated request bytes ${bytes(crossing.accumulated)} > budget ${bytes(budget)}`;
      const after = calls.length - 1 - crossing.index;
      if (after > ctx.continueAsNewGraceTurns) {
        const next = calls[crossing.index + ctx.continueAsNewGraceTurns + 1];
        failures.push(
          `${passed}, yet ${after} more call_model followed (${at(next?.scheduled.id ?? 0)} the first over grace ${ctx.continueAsNewGraceTurns})`,
        );
      } else if (end?.kind === 'continued-as-new') {
        notes.push(`${passed}; ContinueAsNew at ${at(end.event.id)}`);
      } else if (end === null) {
        notes.push(`${passed}; the execution is still open within grace`);
      } else if (end.kind === 'completed') {
        notes.push(`${passed}; the run completed at ${at(end.event.id)}`);
      } else {
        failures.push(`${passed}, yet the execution ended ${end.kind} at ${at(end.event.id)}, not ContinueAsNew`);
      }
    }
    return judge(this.id, failures, notes, exercised);
  },
};
