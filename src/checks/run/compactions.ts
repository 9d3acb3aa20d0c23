/**
 * Compactions as the history records them: the compact_context activities, and the journal's
 * `context.compacted` / `context.compaction_failed` events. A compaction is accepted when its
 * result card is the card of a `context.compacted` event (the kernel then rebuilds with it).
 */
import { dialogBefore, dialogBytes, type ExpectedMessage } from './dialog.ts';
import type { Activity, JournaledEvent, RunView, Turn } from './run-view.ts';

/** The run's journal by event type, made once per run: checks ask for it per turn and per execution. */
const journalByType = new WeakMap<RunView, Map<string, JournaledEvent[]>>();

export function journalOf(run: RunView, type: string): JournaledEvent[] {
  let byType = journalByType.get(run);
  if (!byType) {
    byType = new Map();
    for (const entry of run.journal) {
      const list = byType.get(entry.event.type);
      if (list) list.push(entry);
      else byType.set(entry.event.type, [entry]);
    }
    journalByType.set(run, byType);
  }
  return byType.get(type) ?? [];
}

export function cardOf(event: JournaledEvent): string | undefined {
  const card = event.event.data.card;
  return typeof card === 'string' ? card : undefined;
}

/** Whether `activity` was scheduled before `later` in the run (executions in ContinueAsNew order). */
function scheduledBefore(activity: Activity, later: Activity): boolean {
  const [a, b] = [activity.execution.number, later.execution.number];
  return a < b || (a === b && activity.scheduled.id < later.scheduled.id);
}

const compactionsByRun = new WeakMap<RunView, Activity[]>();

/** The run's compact_context activities, in the order they were scheduled. */
function compactionsOf(run: RunView): Activity[] {
  let compactions = compactionsByRun.get(run);
  if (!compactions) {
    const type = run.mapping.activities.compactContext;
    compactions = run.executions.flatMap((execution) => execution.activities.filter((activity) => activity.type === type));
    compactionsByRun.set(run, compactions);
  }
  return compactions;
}

/**
 * The `context.compacted` entry that accepted a completed compaction: the first carrying its card
 * journaled after it and before the next compaction. Matched by position as well as card: the
 * same dialog compacts to the same card, so one card can be accepted at several turns, each with
 * counts of its own, and a card rejected once can be accepted at the next try.
 */
export function compactedEntryOf(run: RunView, compaction: Activity): JournaledEvent | undefined {
  if (compaction.result?.kind !== 'compact-context') return undefined;
  const { card } = compaction.result;
  const compactions = compactionsOf(run);
  const index = compactions.indexOf(compaction);
  const next = index < 0 ? undefined : compactions[index + 1];
  return journalOf(run, 'context.compacted').find(
    (entry) =>
      cardOf(entry) === card &&
      scheduledBefore(compaction, entry.activity) &&
      (next === undefined || scheduledBefore(entry.activity, next)),
  );
}

/** The card a completed compaction returned, when a `context.compacted` event after it carries it. */
export function acceptedCard(run: RunView, compaction: Activity): string | undefined {
  return compactedEntryOf(run, compaction) && compaction.result?.kind === 'compact-context' ? compaction.result.card : undefined;
}

/** The accepted compaction among those of one boundary (the last one), with its card. */
export function acceptedAt(run: RunView, compactions: readonly Activity[]): { compaction: Activity; card: string } | undefined {
  for (const compaction of [...compactions].reverse()) {
    const card = acceptedCard(run, compaction);
    if (card !== undefined) return { compaction, card };
  }
  return undefined;
}

/** The dialog a compaction worked on: the messages it was sent, else the dialog re-established. */
export function dialogBeforeCompaction(compaction: Activity, fallback: () => ExpectedMessage[] | null): ExpectedMessage[] | null {
  if (compaction.input.kind === 'compact-context' && compaction.input.messages) return compaction.input.messages;
  return fallback();
}

/**
 * "The request at the boundary" of a turn is the request the kernel would send if it did not
 * compact: the dialog as it stood inside the envelope of the turn's first call_model request
 * (model, tools, metadata: its bytes minus its messages' bytes). When the turn has no
 * compaction, that is the request it sent. Sizes are UTF-8 bytes of JSON serialization.
 * The dialog is read two ways, from the history (run/dialog.ts) and as sent to compaction when
 * the history holds it, and the larger counts: a compaction input past the blob limit is itself
 * elided (assistant texts too), smaller than the request the kernel held.
 */
export function boundaryBytes(compaction: Activity, envelope: number, held: () => ExpectedMessage[] | null): number | null {
  const sent = compaction.input.kind === 'compact-context' ? compaction.input.messages : undefined;
  const sizes = [sent ?? null, held()].flatMap((dialog) => {
    const size = dialog ? dialogBytes(dialog) : null;
    return size === null ? [] : [size];
  });
  return sizes.length === 0 ? null : envelope + Math.max(...sizes);
}

/** Whether the kernel elided payloads at this turn or the one before (tool contents may differ). */
export function elidedAround(run: RunView, turn: Turn): boolean {
  const previous = turn.execution.turns[turn.index - 1]?.number;
  return journalOf(run, 'payload.elided').some(
    (entry) => entry.event.turn === turn.number || (previous !== undefined && entry.event.turn === previous),
  );
}

/** The journal's `payload.elided` entry for this turn's request, if the kernel wrote one. */
export function requestElidedAt(run: RunView, turn: Turn): JournaledEvent | undefined {
  return journalOf(run, 'payload.elided').find(
    (entry) => entry.event.turn === turn.number && (entry.event.data as { payload?: unknown }).payload === 'request',
  );
}

/** The dialog before `turn`, established on demand and once, however many rules ask for it. */
export function turnDialog(run: RunView, turn: Turn): () => ExpectedMessage[] | null {
  let dialog: ExpectedMessage[] | null | undefined;
  return () => {
    if (dialog === undefined) dialog = dialogBefore(run, turn);
    return dialog;
  };
}

export function turnLabel(turn: Turn): string {
  return turn.number === undefined ? `turn #${turn.index + 1} of execution ${turn.execution.number}` : `turn ${turn.number}`;
}
