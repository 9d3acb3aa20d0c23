/**
 * What a verdict says of the events the checks did not read (model.ts, `UninterpretedEvent`):
 * the ones skipped because the server marked them `workerMayIgnore`, and the ones of a type the
 * checks do not know, around which the run was judged. One line each, naming the types.
 */
import type { LoadedHistory } from './model.ts';

/** Event ids named per type and execution before "and N more". */
const IDS_SHOWN = 5;

function where(ids: readonly number[]): string {
  const shown = ids.slice(0, IDS_SHOWN).join(', ');
  const more = ids.length > IDS_SHOWN ? ` and ${ids.length - IDS_SHOWN} more` : '';
  return `${ids.length === 1 ? 'event' : 'events'} ${shown}${more}`;
}

/** "Unknown (execution 1: events 5, 9)", each type once, in the order first met. */
function byType(histories: readonly LoadedHistory[], ignorable: boolean): { count: number; types: string } {
  const found = new Map<string, Map<number, number[]>>();
  let count = 0;
  histories.forEach((history, index) => {
    for (const event of history.uninterpreted ?? []) {
      if (event.workerMayIgnore !== ignorable) continue;
      count++;
      const executions = found.get(event.type) ?? new Map<number, number[]>();
      found.set(event.type, executions);
      executions.set(index + 1, [...(executions.get(index + 1) ?? []), event.id]);
    }
  });
  const types = [...found].map(([type, executions]) => {
    const places = [...executions].map(([execution, ids]) => `execution ${execution}: ${where(ids)}`);
    return `${type} (${places.join('; ')})`;
  });
  return { count, types: types.join(', ') };
}

const events = (n: number) => `${n} event${n === 1 ? '' : 's'}`;

/** The notes of a run whose executions are `histories`, in order; none when every event was read. */
export function uninterpretedNotes(histories: readonly LoadedHistory[]): string[] {
  const notes: string[] = [];
  const skipped = byType(histories, true);
  if (skipped.count > 0) {
    notes.push(`skipped ${events(skipped.count)} marked workerMayIgnore, as a worker does: ${skipped.types}`);
  }
  const unknown = byType(histories, false);
  if (unknown.count > 0) {
    notes.push(`judged around ${events(unknown.count)} of a type the checks do not know (not read): ${unknown.types}`);
  }
  return notes;
}
