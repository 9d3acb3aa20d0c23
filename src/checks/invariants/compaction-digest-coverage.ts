import { extractIdentifiers } from '../../contract/identifiers.ts';
import type { MessageSummary } from '../history/model.ts';
import { compactedEntryOf, turnDialog, turnLabel } from '../run/compactions.ts';
import { type ExpectedMessage, sameShape } from '../run/dialog.ts';
import { type Activity, callRequest, type RunView, type Turn } from '../run/run-view.ts';
import { type HistoryInvariant, judge } from '../verdict.ts';

/** The kind of message a reader of the evidence recognises: the spec's list of what a digest covers. */
function kindOf(message: ExpectedMessage, index: number): string {
  if (message.role === 'system') return index === 0 ? 'the system prompt' : 'an earlier card (system message)';
  if (message.role === 'user') return index === 1 ? 'the user request' : 'a user turn';
  if (message.role === 'tool') return `the tool result for ${message.toolCallId}`;
  const calls = 'toolCallIds' in message ? (message.toolCallIds ?? []) : [];
  return calls.length > 0 ? `the assistant message calling ${calls.join(', ')}` : 'an assistant text';
}

function texts(message: ExpectedMessage): number {
  if ('unknownContent' in message) return 0;
  // An empty text is no text: a digest of it shows nothing.
  return (message.parts ?? []).filter((part) => part.kind === 'text' && part.bytes !== 0).length + (message.text ? 1 : 0);
}

/**
 * Whether the compaction was shown `held` as `sent`: the same message, or (a payload past the blob
 * limit) the same shape with its texts and screenshots elided to placeholders, never to nothing.
 */
function shows(sent: MessageSummary, held: ExpectedMessage): boolean {
  if ('unknownContent' in held) return sent.role === 'tool' && sent.toolCallId === held.toolCallId;
  if (sent.hash === held.hash) return true;
  // Cards and user turns are never elided: a system or user message must be the same.
  if (held.role === 'system' || held.role === 'user' || !sameShape(sent, held)) return false;
  const screenshots = held.screenshots ?? 0;
  // A message with neither text nor screenshot has nothing to elide; a screenshot emptied away is elided to nothing.
  if (texts(held) === 0 && screenshots === 0) return true;
  return texts(sent) > 0 || (screenshots > 0 && (sent.screenshots ?? 0) === screenshots);
}

/** The held messages that leave the request: those not in the rebuild, or all but the two kept verbatim. */
function displaced(held: readonly ExpectedMessage[], rebuilt: readonly MessageSummary[] | undefined): number[] {
  const kept = new Set(rebuilt?.map((m) => m.hash));
  return held.flatMap((message, index) => {
    if (rebuilt === undefined) return index < 2 ? [] : [index];
    return 'unknownContent' in message || !kept.has(message.hash) ? [index] : [];
  });
}

/** The problems of one compaction's input against the dialog it displaces, in order. */
function coverageProblems(sent: readonly MessageSummary[], held: readonly ExpectedMessage[], leaving: readonly number[]): string[] {
  const problems: string[] = [];
  let cursor = 0;
  for (const index of leaving) {
    const message = held[index] as ExpectedMessage;
    let found = cursor;
    while (found < sent.length && !shows(sent[found] as MessageSummary, message)) found++;
    if (found === sent.length) problems.push(`leaves out ${kindOf(message, index)} (message ${index} of the dialog it displaces)`);
    else cursor = found + 1;
  }
  return problems;
}

function identifiersSent(sent: readonly MessageSummary[]): string {
  return sent.map((message) => message.text ?? '').join('\n');
}

/** The turn a compaction belongs to. */
function turnOf(run: RunView, compaction: Activity): Turn | undefined {
  return run.executions.flatMap((execution) => execution.turns).find((turn) => turn.compactions.includes(compaction));
}

/**
 * What a compaction must see: every message that leaves the request reaches the compaction (its
 * digest is built from that input, capped head+tail and screenshots counted), and the identifiers
 * of the card it replaces reach it too, or each card forgets all before the previous one.
 */
export const compactionDigestCoverage: HistoryInvariant = {
  id: 'compaction.digest-coverage',
  appliesTo: 'kernel',
  description:
    "each compact_context input holds every message the compaction displaces (the earlier card, the user's turns, the assistant's texts, the tool calls and results), elided at most to placeholders; the identifiers of the previous accepted card reach the next compaction",
  check(run) {
    const failures: string[] = [];
    const notes: string[] = [];
    let judged = 0;
    let previousCard: { card: string; where: string } | undefined;
    const type = run.mapping.activities.compactContext;
    const compactions = run.executions.flatMap((execution) => execution.activities.filter((activity) => activity.type === type));
    for (const compaction of compactions) {
      const where = run.at(compaction.execution, compaction.scheduled.id);
      const sent = compaction.input.kind === 'compact-context' ? compaction.input.messages : undefined;
      const turn = turnOf(run, compaction);
      const held = turn ? turnDialog(run, turn)() : null;
      if (!sent || !turn || !held) {
        notes.push(`${where}: the compaction's input or the dialog it displaces is not in the history; not judged`);
      } else {
        judged++;
        const accepted = compactedEntryOf(run, compaction) !== undefined;
        const first = turn.calls[0];
        const rebuilt = accepted && first ? callRequest(first)?.messages : undefined;
        const leaving = displaced(held, rebuilt);
        const problems = coverageProblems(sent, held, leaving);
        if (previousCard) {
          const text = identifiersSent(sent);
          const missing = extractIdentifiers(previousCard.card).filter((identifier) => !text.includes(identifier));
          if (missing.length > 0)
            problems.push(
              `misses ${missing.length} identifiers of the card accepted at ${previousCard.where}: ${missing.slice(0, 10).join(', ')}`,
            );
        }
        const label = `${where} (${turnLabel(turn)}), the compaction's input`;
        for (const problem of problems) failures.push(`${label} ${problem}`);
        if (problems.length === 0) notes.push(`${label} shows the ${leaving.length} messages it displaces`);
      }
      if (compactedEntryOf(run, compaction) && compaction.result?.kind === 'compact-context') {
        previousCard = { card: compaction.result.card, where };
      }
    }
    if (compactions.length === 0) notes.push('no compaction');
    return judge(this.id, failures, notes, judged > 0);
  },
};
