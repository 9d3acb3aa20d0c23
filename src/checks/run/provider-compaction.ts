/**
 * Provider-side compaction as a kernel's requests show it: a message of role `compaction` (the
 * Responses API's compaction item in the kernel's form, its content opaque) stands for every
 * message before it, which the kernel then drops. The first request that holds a new one is the
 * system prompt, that item, then what the previous request's answer added (the answer and its
 * tool results): besides the card's rebuild, the one intended break of the append-only dialog.
 */
import type { MessageSummary } from '../history/model.ts';
import { type ExpectedMessage, lastCompletedCall } from './dialog.ts';
import { callRequest, type RunView, type Turn } from './run-view.ts';

export const COMPACTION_ROLE = 'compaction';

/**
 * The dialog a provider's compaction left at this turn's boundary, when the request holds a
 * compaction item the dialog as it stood did not; null otherwise (then the request is judged
 * against the dialog as it stood).
 */
export function providerCompactedDialog(
  turn: Turn,
  request: readonly MessageSummary[],
  dialog: readonly ExpectedMessage[],
): ExpectedMessage[] | null {
  const held = new Set(dialog.flatMap((m) => ('hash' in m ? [m.hash] : [])));
  const item = request.find((m) => m.role === COMPACTION_ROLE && !held.has(m.hash));
  const previous = turn.execution.turns[turn.index - 1];
  const call = previous && lastCompletedCall(previous);
  if (!item || !call || call.input.kind !== 'call-model') return null;
  // What the previous answer followed is what the compaction stands for: it keeps what came after.
  const answered = call.input.request.messages.length;
  const system = dialog[0]?.role === 'system' ? [dialog[0]] : [];
  return [...system, item, ...dialog.slice(answered)];
}

/** The distinct compaction items the run's requests carry: how often the provider compacted. */
export function providerCompactions(run: RunView): number {
  const items = new Set<string>();
  for (const execution of run.executions) {
    for (const turn of execution.turns) {
      for (const call of turn.calls) {
        for (const message of callRequest(call)?.messages ?? []) if (message.role === COMPACTION_ROLE) items.add(message.hash);
      }
    }
  }
  return items.size;
}
