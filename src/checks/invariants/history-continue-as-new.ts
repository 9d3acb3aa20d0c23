import { historyLimitOf } from '../../contract/history-limits.ts';
import type { ResolvedContext } from '../context.ts';
import type { HistoryEvent } from '../history/model.ts';
import { callRequest, type Execution, type RunView } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, type InvariantResult, judge } from '../verdict.ts';

/** The first workflow task whose started event carries the server's suggestion to continue as new. */
function firstSuggestion(events: readonly HistoryEvent[]): HistoryEvent | undefined {
  return events.find((event) => event.attrs.kind === 'workflow-task' && event.attrs.suggestContinueAsNew === true);
}

/** The history's size: its payload bytes, or the server's own count (WorkflowTaskStarted) when larger. */
function historyBytes(events: readonly HistoryEvent[]): number {
  let payloads = 0;
  let counted = 0;
  for (const event of events) {
    for (const field of event.payloads) payloads += field.bytes;
    if (event.attrs.kind === 'workflow-task' && (event.attrs.historySizeBytes ?? 0) > counted) counted = event.attrs.historySizeBytes ?? 0;
  }
  return Math.max(payloads, counted);
}

/** The history limits an execution reached, or was terminated by; any workflow is judged by them. */
function limitsReached(run: RunView, execution: Execution, ctx: ResolvedContext): string[] {
  const size = historyBytes(execution.history.events);
  const events = execution.history.events.length;
  const reached: string[] = [];
  if (size >= ctx.historySizeLimitBytes) {
    reached.push(`history reached ${bytes(size)} bytes >= history size limit ${bytes(ctx.historySizeLimitBytes)}`);
  }
  if (events >= ctx.historyCountLimit) reached.push(`${bytes(events)} events >= history count limit ${bytes(ctx.historyCountLimit)}`);
  const end = execution.end;
  const limit =
    end?.event.attrs.kind === 'workflow-closed' && end.kind === 'terminated' ? historyLimitOf(end.event.attrs.reason ?? '') : undefined;
  // The server terminates as its own count passes the limit, which may be a few events over what it kept.
  if (limit && reached.length === 0) {
    reached.push(`terminated by the ${limit} limit at ${run.at(execution, end?.event.id ?? 0)} (${bytes(events)} events)`);
  }
  return reached.map((line) => `execution ${execution.number}: ${line}`);
}

/** Another workflow has no request bytes to budget: only the history limits judge it. */
function judgeLimitsOnly(run: RunView, ctx: ResolvedContext): InvariantResult {
  const failures = run.executions.flatMap((execution) => limitsReached(run, execution, ctx));
  const notes = run.executions.map(
    (execution) =>
      `execution ${execution.number}: ${bytes(execution.history.events.length)} events, ${bytes(historyBytes(execution.history.events))} history bytes (limits ${bytes(ctx.historyCountLimit)} events, ${bytes(ctx.historySizeLimitBytes)} bytes)`,
  );
  notes.push("the request-bytes budget is not applicable: not the kernel's mechanism");
  return judge('history.continue-as-new', failures, notes, true);
}

/**
 * Accumulated request bytes of an execution: the sum of the serialized requests of every
 * call_model it scheduled (each scheduled request stays in its history). Once the sum passes the
 * budget, at most `continueAsNewGraceTurns` further call_model may be scheduled before the
 * execution continues as new (or completes); and no execution may reach a history limit (or be
 * terminated by one). An execution does not continue as new before the sum passes the budget (at
 * exactly the budget is too early), unless its history called for it: the server suggested it
 * (WorkflowTaskStarted `suggestContinueAsNew`), or the history had reached half a limit (a
 * kernel's own bound on its length or size); such a ContinueAsNew exercises the check.
 */
export const historyContinueAsNew: HistoryInvariant = {
  id: 'history.continue-as-new',
  appliesTo: 'any-workflow',
  description: 'an execution continues as new once its accumulated request bytes pass the budget, not before, and before any history limit',
  check(run, ctx) {
    if (!run.mechanism.found) return judgeLimitsOnly(run, ctx);
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
      // Half a limit counts payload bytes only, as the broken controls were calibrated on; reaching a limit counts the server's size too.
      const size = execution.history.events.reduce((sum, event) => sum + event.payloads.reduce((s, p) => s + p.bytes, 0), 0);
      const events = execution.history.events.length;
      const end = execution.end;
      failures.push(...limitsReached(run, execution, ctx));
      if (!crossing) {
        const suggestion = firstSuggestion(execution.history.events);
        const pressed = events * 2 >= ctx.historyCountLimit || size * 2 >= ctx.historySizeLimitBytes;
        if (end?.kind === 'continued-as-new' && unreadable === 0 && !suggestion && !pressed) {
          // The spec continues as new once the bytes exceed the budget: at or under it is too early.
          exercised = true;
          failures.push(
            `${at(end.event.id)}: ContinueAsNew after ${bytes(accumulated)} request bytes, not over the budget ${bytes(budget)}`,
          );
          continue;
        }
        const how = end?.kind === 'continued-as-new' ? `continued as new at ${at(end.event.id)}` : `ended ${end?.kind ?? 'open'}`;
        const suggestedSize = suggestion?.attrs.kind === 'workflow-task' ? (suggestion.attrs.historySizeBytes ?? 0) : 0;
        const suggested = suggestion
          ? `; the server suggested ContinueAsNew at ${at(suggestion.id)} (${bytes(suggestion.id)} events${suggestedSize > 0 ? `, ${bytes(suggestedSize)} bytes` : ''})`
          : pressed
            ? `; the history reached half a limit (${bytes(events)} events, ${bytes(size)} payload bytes)`
            : '';
        const unjudged = unreadable > 0 ? ` (${unreadable} call_model inputs unreadable)` : '';
        notes.push(
          `execution ${execution.number}: ${bytes(accumulated)} request bytes${unjudged}, under the budget ${bytes(budget)}${suggested}; ${how}`,
        );
        if ((suggestion || pressed) && end?.kind === 'continued-as-new') exercised = true;
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
