/**
 * Orders the histories of one run into its ContinueAsNew chain: each execution names the one it
 * continues (`continuedExecutionRunId`), and each ContinueAsNew names the next (`newExecutionRunId`).
 */
import { HistoryLoadError } from '../history/errors.ts';
import type { LoadedHistory } from '../history/model.ts';

function ownRunId(history: LoadedHistory): string | undefined {
  const first = history.events[0]?.attrs;
  return first?.kind === 'workflow-started' ? first.runId : undefined;
}

function continuedFrom(history: LoadedHistory): string | undefined {
  const first = history.events[0]?.attrs;
  return first?.kind === 'workflow-started' ? first.continuedFromRunId : undefined;
}

function endsInContinueAsNew(history: LoadedHistory): boolean {
  return history.events.at(-1)?.attrs.kind === 'continued-as-new';
}

export function orderChain(histories: readonly LoadedHistory[]): LoadedHistory[] {
  if (histories.length <= 1) return [...histories];
  const byRunId = new Map<string, LoadedHistory>();
  for (const history of histories) {
    const runId = ownRunId(history);
    if (runId === undefined) {
      throw new HistoryLoadError(history.source, 'no run id (originalExecutionRunId): cannot place it in the ContinueAsNew chain');
    }
    if (byRunId.has(runId)) throw new HistoryLoadError(history.source, `run id ${runId} is given twice`);
    byRunId.set(runId, history);
  }
  const heads = histories.filter((h) => !byRunId.has(continuedFrom(h) ?? ''));
  // Indexed by the run each continues, so a chain of thousands of executions orders in linear time.
  const byContinuedFrom = new Map<string, LoadedHistory>();
  for (const history of histories) {
    const from = continuedFrom(history);
    if (from !== undefined && !byContinuedFrom.has(from)) byContinuedFrom.set(from, history);
  }
  if (heads.length !== 1) {
    throw new HistoryLoadError(
      heads.map((h) => h.source).join(', ') || histories[0]?.source || 'histories',
      `not one ContinueAsNew chain: ${heads.length} executions continue none of the others`,
    );
  }
  const ordered = [heads[0] as LoadedHistory];
  for (;;) {
    const current = ordered.at(-1) as LoadedHistory;
    const next = byContinuedFrom.get(ownRunId(current) ?? '');
    if (!next) break;
    if (!endsInContinueAsNew(current)) {
      throw new HistoryLoadError(current.source, `is continued by ${next.source} but does not end in ContinueAsNew`);
    }
    ordered.push(next);
  }
  if (ordered.length !== histories.length) {
    const placed = new Set(ordered);
    const stray = histories.find((h) => !placed.has(h)) as LoadedHistory;
    throw new HistoryLoadError(stray.source, 'is not part of the ContinueAsNew chain of the other histories');
  }
  return ordered;
}
