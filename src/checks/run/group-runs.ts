/**
 * Groups the executions of many runs (a folder of exported histories) into runs: an execution
 * that a ContinueAsNew started belongs to the run of the execution it continues
 * (`continuedExecutionRunId`), or, when that one is not among them, to the run whose first
 * execution it names (`firstExecutionRunId`), so that a missing link shows in that run. A retry
 * or a cron run starts a run of its own; so does an execution that names no run id.
 */
import type { LoadedHistory } from '../history/model.ts';

function startOf(history: LoadedHistory) {
  const first = history.events[0]?.attrs;
  return first?.kind === 'workflow-started' ? first : undefined;
}

export function groupRuns(histories: readonly LoadedHistory[]): LoadedHistory[][] {
  const byRunId = new Map<string, LoadedHistory>();
  for (const history of histories) {
    const runId = startOf(history)?.runId;
    if (runId !== undefined && !byRunId.has(runId)) byRunId.set(runId, history);
  }
  /** The execution a ContinueAsNew execution continues, when it is among them. */
  const previousOf = (history: LoadedHistory): LoadedHistory | undefined => {
    const start = startOf(history);
    if (start?.continuedFromRunId === undefined || start.startedBy !== undefined) return undefined;
    const previous = byRunId.get(start.continuedFromRunId) ?? byRunId.get(start.firstRunId ?? '');
    // The same workflow only: a hand-made file may reuse another's run id.
    return previous && previous !== history && startOf(previous)?.workflowId === start.workflowId ? previous : undefined;
  };
  const headOf = new Map<LoadedHistory, LoadedHistory>();
  const runs = new Map<LoadedHistory, LoadedHistory[]>();
  for (const history of histories) {
    // Walk back along the links (iteratively: a chain may hold thousands of executions).
    const path = new Set<LoadedHistory>();
    let current: LoadedHistory | undefined = history;
    let head: LoadedHistory | undefined;
    while (current && !head) {
      head = headOf.get(current);
      if (head) break;
      if (path.has(current)) break;
      path.add(current);
      current = previousOf(current);
    }
    const found = head ?? ([...path].at(-1) as LoadedHistory);
    for (const step of path) headOf.set(step, found);
    const run = runs.get(found);
    if (run) run.push(history);
    else runs.set(found, [history]);
  }
  return [...runs.values()];
}
