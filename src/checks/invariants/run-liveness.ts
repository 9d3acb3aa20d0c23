/**
 * run.liveness: a run ends by itself, within its timeout, completed or failed for a reason the
 * contract names. A stall is a violation, never "no violation": a run that had to be stopped,
 * timed out or is still open fails, and the evidence says why it stalled (an activity that never
 * closed, a workflow task failing at the end). So do an activity past its attempts or its
 * schedule-to-close, and an execution that continued as new without completing a turn. A run its
 * payload guard ended must have had a payload to give up on: not a dialog that eliding its tool
 * outputs and screenshots brings under half the blob limit. A run refused at its input must have
 * had an input to refuse. A chat agent's run that longrun ended after its last message (its
 * workflow waits for messages for ever) ended well if the agent was idle then.
 */
import { endsConversation } from '../../contract/conversation-end.ts';
import { jsonArrayBytes } from '../history/messages.ts';
import type { HistoryEvent, MessageSummary } from '../history/model.ts';
import { dialogAtEnd, dialogAtStart, dialogBytes } from '../run/dialog.ts';
import { unreadReferences } from '../run/offloads.ts';
import type { Activity, Execution, RunView } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, judge } from '../verdict.ts';
import { FORCE_CLOSED } from './wft-no-retry-loop.ts';

/** Empty executions listed one by one before the rest are counted. */
const LISTED_EMPTY_EXECUTIONS = 3;

function timeMs(event: HistoryEvent | undefined): number | undefined {
  const ms = event?.time === undefined ? Number.NaN : Date.parse(event.time);
  return Number.isNaN(ms) ? undefined : ms;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function scheduled(activity: Activity): Extract<HistoryEvent['attrs'], { kind: 'activity-scheduled' }> {
  return activity.scheduled.attrs as Extract<HistoryEvent['attrs'], { kind: 'activity-scheduled' }>;
}

function retryBound(activity: Activity): string {
  const { maximumAttempts, scheduleToCloseMs } = scheduled(activity);
  const attempts = maximumAttempts > 0 ? `at most ${maximumAttempts} attempts` : 'attempts without bound';
  return `${attempts}, ${scheduleToCloseMs > 0 ? `schedule-to-close ${seconds(scheduleToCloseMs)}` : 'no schedule-to-close'}`;
}

/**
 * The dialog a run's payload guard gave up on, in bytes: as it stood when the last execution
 * closed (the next request's messages, or what ContinueAsNew would carry), and the least a guard
 * could leave of it, every tool output and screenshot elided. Null when the history cannot
 * establish it, or after a compaction (the rebuild is the kernel's own).
 */
function guardedDialog(run: RunView, last: Execution): { bytes: number; floor: number } | null {
  if (last.trailingCompactions.some((compaction) => compaction.outcome === 'completed')) return null;
  const dialog = last.turns.length === 0 ? dialogAtStart(run, last) : dialogAtEnd(last);
  const size = dialog ? dialogBytes(dialog) : null;
  if (size === null) return null;
  const floor = jsonArrayBytes((dialog as MessageSummary[]).map((message) => message.elidedBytes ?? message.bytes));
  return { bytes: size, floor };
}

/**
 * A dialog at or under this share of the blob limit fits whatever margin a guard keeps for the
 * envelope around the messages: a margin is a sliver of the limit, never half of it.
 */
const SURELY_FITS_SHARE = 0.5;

/** How the run ended: a failure line when it did not end by itself, else a note. */
function endOf(run: RunView, last: Execution, blobLimitBytes: number, payloadsRead: boolean): { failure?: string; note?: string } {
  const end = last.end;
  const lastEvent = last.history.events.at(-1) as HistoryEvent;
  if (!end) return { failure: `${run.at(last, lastEvent.id)}: the run has not ended (its last execution is still open)` };
  const at = run.at(last, end.event.id);
  const attrs = end.event.attrs;
  if (end.kind === 'completed') return { note: `${at}: completed` };
  if (attrs.kind !== 'workflow-closed') return { failure: `${at}: the last execution continued as new, and no execution follows it` };
  if (end.kind === 'failed') {
    const named = attrs.failure?.types.find((type) => run.mapping.failureTypes.includes(type));
    // Whether the guard's and the input's reasons were true reads payloads: not judged where some were offloaded and not read.
    if (
      named !== undefined &&
      !payloadsRead &&
      (named === run.mapping.payloadGuardFailureType || named === run.mapping.invalidInputFailureType)
    ) {
      return {
        note: `${at}: failed with ${named}, a reason the contract names (whether it was true is not judged: payloads offloaded to External Storage were not read)`,
      };
    }
    const guarded = named !== undefined && named === run.mapping.payloadGuardFailureType ? guardedDialog(run, last) : null;
    if (named !== undefined && named === run.mapping.invalidInputFailureType && last.input.problem === null) {
      return { failure: `${at}: failed with ${named}, but its input is a RunInput every kernel must take` };
    }
    if (guarded !== null && guarded.floor <= blobLimitBytes * SURELY_FITS_SHARE) {
      return {
        failure:
          `${at}: failed with ${named} (no payload under the blob limit), but its dialog of ${bytes(guarded.bytes)} bytes is ` +
          `${bytes(guarded.floor)} with every tool output and screenshot elided, under half the blob limit ${bytes(blobLimitBytes)}`,
      };
    }
    return named
      ? { note: `${at}: failed with ${named}, a reason the contract names` }
      : { failure: `${at}: failed for a reason the contract does not name: ${attrs.failure?.text ?? 'no failure given'}` };
  }
  if (end.kind === 'terminated' && endsConversation(attrs.reason)) {
    const busy = busyAtEnd(run, last);
    return busy.length === 0
      ? { note: `${at}: ${attrs.reason} (the agent was idle: every message answered)` }
      : { failure: `${at}: ${attrs.reason}, but the agent was not idle: ${busy.join('; ')}` };
  }
  if (end.kind === 'terminated') {
    return { failure: `${at}: terminated by "${attrs.identity ?? ''}": "${attrs.reason ?? ''}" (the run did not end by itself)` };
  }
  return { failure: `${at}: ${end.kind === 'timed-out' ? 'timed out' : 'canceled'} (the run did not end by itself)` };
}

/**
 * What a run was still doing when it was ended from outside: activities open, a workflow task
 * not completed, updates accepted and not answered. Empty when it was idle, waiting for a message.
 */
function busyAtEnd(run: RunView, last: Execution): string[] {
  const busy = last.activities.filter((a) => !a.closed).map((a) => `${run.at(last, a.scheduled.id)}: ${a.type} was still open`);
  const events = last.history.events;
  const lastTask = events.filter((e) => e.attrs.kind === 'workflow-task' || e.attrs.kind === 'workflow-task-failed').at(-1);
  if (lastTask && !(lastTask.attrs.kind === 'workflow-task' && lastTask.attrs.phase === 'completed')) {
    busy.push(`${run.at(last, lastTask.id)}: its workflow task was not completed`);
  }
  const count = (type: string) => events.filter((e) => e.type === type).length;
  const unanswered = count('WorkflowExecutionUpdateAccepted') - count('WorkflowExecutionUpdateCompleted');
  if (unanswered > 0) busy.push(`${unanswered} accepted update(s) not answered`);
  return busy;
}

/** Why a run that did not end by itself stalled: what was still open in its last execution. */
function stallCauses(run: RunView, last: Execution): string[] {
  const causes: string[] = [];
  for (const activity of last.activities) {
    if (activity.closed) continue;
    causes.push(`${run.at(last, activity.scheduled.id)}: ${activity.type} was scheduled and never closed (${retryBound(activity)})`);
  }
  let failedTask: HistoryEvent | undefined;
  for (const event of last.history.events) {
    const { attrs } = event;
    if (attrs.kind === 'workflow-task-failed' && attrs.cause !== FORCE_CLOSED) failedTask = event;
    else if (attrs.kind === 'workflow-task' && attrs.phase === 'completed') failedTask = undefined;
  }
  if (failedTask?.attrs.kind === 'workflow-task-failed') {
    const { cause, failure } = failedTask.attrs;
    causes.push(
      `${run.at(last, failedTask.id)}: a workflow task failed (${cause}${failure ? `: ${failure.text}` : ''}) and none completed after it`,
    );
  }
  return causes;
}

/** Activities past their attempts or their schedule-to-close. */
function overdueActivities(run: RunView, execution: Execution): string[] {
  const closedAt = timeMs(execution.end?.event ?? execution.history.events.at(-1));
  const failures: string[] = [];
  for (const activity of execution.activities) {
    const { maximumAttempts, scheduleToCloseMs } = scheduled(activity);
    const at = run.at(execution, activity.scheduled.id);
    if (maximumAttempts > 0 && (activity.attempt ?? 0) > maximumAttempts) {
      failures.push(`${at}: ${activity.type} ran attempt ${activity.attempt}, past its maximum of ${maximumAttempts}`);
    }
    const from = timeMs(activity.scheduled);
    const to = activity.closed ? timeMs(activity.closed) : closedAt;
    if (scheduleToCloseMs > 0 && from !== undefined && to !== undefined && to - from > scheduleToCloseMs) {
      failures.push(`${at}: ${activity.type} was open ${seconds(to - from)}, past its schedule-to-close of ${seconds(scheduleToCloseMs)}`);
    }
  }
  return failures;
}

/** Executions that continued as new without a completed model call: a chain that does not progress. */
function emptyExecutions(run: RunView): string[] {
  const empty = run.executions.filter(
    (execution) =>
      execution.end?.kind === 'continued-as-new' &&
      !execution.activities.some((a) => a.type === run.mapping.activities.callModel && a.outcome === 'completed'),
  );
  const lines = empty
    .slice(0, LISTED_EMPTY_EXECUTIONS)
    .map((execution) => `${run.at(execution, execution.end?.event.id ?? 0)}: continued as new without completing a turn`);
  if (empty.length > LISTED_EMPTY_EXECUTIONS) {
    lines.push(`${empty.length} of ${run.executions.length} executions continued as new without completing a turn`);
  }
  return lines;
}

export const runLiveness: HistoryInvariant = {
  id: 'run.liveness',
  appliesTo: 'kernel',
  // Judged from the events; the two reasons that read payloads are set aside where they were not read (endOf).
  readsPayloads: false,
  description: 'the run ends by itself within its timeout, completed or failed for a reason the contract names',
  check(run, ctx) {
    const last = run.executions.at(-1) as Execution;
    const { failure, note } = endOf(run, last, ctx.limits.blobLimitBytes, unreadReferences(run).length === 0);
    const failures = failure ? [failure, ...stallCauses(run, last)] : [];
    for (const execution of run.executions) failures.push(...overdueActivities(run, execution));
    failures.push(...emptyExecutions(run));
    const startedAt = timeMs(run.executions[0]?.history.events[0]);
    const endedAt = timeMs(last.end?.event);
    if (ctx.runTimeoutMs !== undefined && startedAt !== undefined && endedAt !== undefined && endedAt - startedAt > ctx.runTimeoutMs) {
      failures.push(`the run took ${seconds(endedAt - startedAt)}, past its timeout of ${seconds(ctx.runTimeoutMs)}`);
    }
    return judge(this.id, failures, note ? [note] : [], true);
  },
};
