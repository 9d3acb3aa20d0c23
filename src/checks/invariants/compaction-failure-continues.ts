import type { HistoryEvent } from '../history/model.ts';
import { journalOf } from '../run/compactions.ts';
import type { Activity, Execution, RunView } from '../run/run-view.ts';
import { type HistoryInvariant, judge } from '../verdict.ts';

interface CompactionFailure {
  execution: Execution;
  /** The event after which the run must go on. */
  event: HistoryEvent;
  what: string;
  /** A journaled failure's turn: the kernel may journal it after that turn's call (appends run in the background). */
  turn?: number;
}

function failuresOf(run: RunView): CompactionFailure[] {
  const found: CompactionFailure[] = [];
  for (const execution of run.executions) {
    for (const activity of execution.activities) {
      if (activity.type !== run.mapping.activities.compactContext || !activity.closed) continue;
      if (activity.outcome === 'failed' || activity.outcome === 'timed-out') {
        found.push({ execution, event: activity.closed, what: `compact_context ${activity.outcome}` });
      }
    }
  }
  for (const entry of journalOf(run, 'context.compaction_failed')) {
    const { execution, scheduled } = entry.activity;
    found.push({ execution, event: scheduled, what: `context.compaction_failed (turn ${entry.event.turn})`, turn: entry.event.turn });
  }
  return found;
}

/**
 * Bounded in attempts, or in time by the kernel itself: the server fills an unset schedule-to-close
 * with the run's timeout, which bounds nothing the run's own timeout does not.
 */
function bounded(activity: Activity, runTimeoutMs: number): boolean {
  const attrs = activity.scheduled.attrs;
  if (attrs.kind !== 'activity-scheduled' || attrs.maximumAttempts > 0) return true;
  return attrs.scheduleToCloseMs > 0 && (runTimeoutMs === 0 || attrs.scheduleToCloseMs < runTimeoutMs);
}

/**
 * The first call_model scheduled after `event`, in its execution or a later one; for a journaled
 * failure, also the call of its turn or a later one, wherever the journal append landed.
 */
function nextCall(run: RunView, failure: CompactionFailure): { execution: Execution; id: number } | undefined {
  const { turn } = failure;
  for (const execution of run.executions.slice(failure.execution.number - 1)) {
    const later = turn === undefined ? undefined : execution.turns.find((t) => t.number !== undefined && t.number >= turn)?.calls[0];
    if (later) return { execution, id: later.scheduled.id };
    const call = execution.activities.find(
      (a) => a.type === run.mapping.activities.callModel && (execution !== failure.execution || a.scheduled.id > failure.event.id),
    );
    if (call) return { execution, id: call.scheduled.id };
  }
  return undefined;
}

export const compactionFailureContinues: HistoryInvariant = {
  id: 'compaction.failure-continues',
  appliesTo: 'kernel',
  description:
    'after context.compaction_failed (or a failed compaction activity) the run goes on; a failed compaction names a failure type of the contract, and its journal record that type; compaction retries are bounded',
  check(run) {
    const failures: string[] = [];
    const notes: string[] = [];
    const compactionFailures = failuresOf(run);
    const last = run.executions.at(-1) as Execution;
    for (const failure of compactionFailures) {
      const where = `${run.at(failure.execution, failure.event.id)}: ${failure.what}`;
      const next = nextCall(run, failure);
      if (next) notes.push(`${where}; call_model again at ${run.at(next.execution, next.id)}`);
      else if (last.end === null) notes.push(`${where}; no call_model yet, the run is still open`);
      else failures.push(`${where}, then no call_model: the run ended ${last.end.kind} at ${run.at(last, last.end.event.id)}`);
    }
    // A run that fails with the compaction in its failure stopped because of it.
    const end = last.end;
    if (compactionFailures.length > 0 && end?.kind === 'failed' && end.event.attrs.kind === 'workflow-closed') {
      const failure = end.event.attrs.failure;
      const named = [failure?.text ?? '', ...(failure?.types ?? [])].join(' ');
      if (failure && (/compact/i.test(named) || failure.activityTypes.includes(run.mapping.activities.compactContext ?? ''))) {
        failures.push(`${run.at(last, end.event.id)}: the run failed because of the compaction: ${failure.text}`);
      }
    }
    // Every failed compaction activity is journaled, so that the run view shows it.
    for (const execution of run.executions) {
      for (const activity of execution.activities) {
        if (activity.type !== run.mapping.activities.compactContext) continue;
        if (activity.outcome !== 'failed' && activity.outcome !== 'timed-out') continue;
        const turn = activity.input.kind === 'compact-context' ? activity.input.turn : undefined;
        const journaled = journalOf(run, 'context.compaction_failed').filter((e) => turn === undefined || e.event.turn === turn);
        const at = run.at(execution, activity.closed?.id ?? activity.scheduled.id);
        if (journaled.length === 0) {
          failures.push(`${at}: compact_context ${activity.outcome} but the journal has no context.compaction_failed for turn ${turn}`);
        }
        // The record is what an operator reads of the failure: its reason names the failure's type.
        const reason = journaled.at(-1)?.event.data.reason;
        const named = (activity.failure?.types ?? []).filter((type) => run.mapping.failureTypes.includes(type));
        if (typeof reason === 'string' && reason !== '' && named.length > 0 && !named.some((type) => reason.includes(type))) {
          failures.push(
            `${at}: compact_context failed with ${named.join(', ')}; the journal's context.compaction_failed of turn ${turn} gives the reason ${JSON.stringify(reason)}`,
          );
        }
        // The run goes on after any failed compaction, so a crash of the kernel's own code there
        // (a TypeError in its card check, say) would pass for a model that failed: the failure
        // must name a reason the contract does.
        const types = activity.failure?.types ?? [];
        if (activity.outcome === 'failed' && !types.some((type) => run.mapping.failureTypes.includes(type))) {
          failures.push(
            `${at}: compact_context failed for a reason the contract does not name (${types.join(', ') || 'no failure type'}): ${activity.failure?.text ?? ''}`,
          );
        }
      }
    }
    // A compaction the kernel retries without bound holds the run for as long as the model is down.
    for (const execution of run.executions) {
      const started = execution.history.events[0]?.attrs;
      const runTimeoutMs = started?.kind === 'workflow-started' ? (started.runTimeoutMs ?? 0) : 0;
      const unbounded = execution.activities.find((a) => a.type === run.mapping.activities.compactContext && !bounded(a, runTimeoutMs));
      if (unbounded) {
        failures.push(
          `${run.at(execution, unbounded.scheduled.id)}: compact_context scheduled with attempts without bound and no schedule-to-close short of the run's timeout: a compaction model that stays down holds the run`,
        );
      }
    }
    if (compactionFailures.length === 0) notes.push('no compaction failed');
    return judge(this.id, failures, notes, compactionFailures.length > 0);
  },
};
