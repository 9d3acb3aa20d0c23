/**
 * The rebuild contract (docs/spec/compaction.md §3) for the messages of one rebuilt dialog:
 * [system prompt verbatim, user request verbatim, ONE framed card system message, tail], where
 * the tail is the last 2-8 whole turn groups of the dialog before compaction, verbatim, at most
 * `tailMaxBytes` (the tail serialized as a JSON array). When the last 2 groups (the fewest that
 * must be kept) are over the cap on their own, the kernel may keep just them and elide items
 * inside: then the tail must have their shape (roles, tool calls and call ids), not their bytes.
 */
import { TAIL_MAX_GROUPS, TAIL_MIN_GROUPS } from '../../contract/limits.ts';
import { jsonArrayBytes } from '../history/messages.ts';
import type { MessageSummary, RunInputSummary } from '../history/model.ts';
import { bytes } from '../verdict.ts';
import { contiguityViolations } from './contiguity.ts';
import { dialogBytes, type ExpectedMessage, sameMessage, sameShape } from './dialog.ts';

export interface RebuildExpectation {
  input: RunInputSummary;
  card: string;
  /** The dialog before compaction; null when the history cannot establish it. */
  before: readonly ExpectedMessage[] | null;
  /** Match tool messages by call id only (a turn with elided payloads). */
  relaxed: boolean;
  tailMaxBytes: number;
}

export interface RebuildReport {
  violations: string[];
  tailGroups: number;
  tailBytes: number;
}

export function checkRebuild(messages: readonly MessageSummary[], expected: RebuildExpectation): RebuildReport {
  const violations: string[] = [];
  const [system, user, card] = messages;
  if (system?.role !== 'system' || system.text !== expected.input.systemPrompt) {
    violations.push('messages[0] is not the system prompt verbatim');
  }
  if (user?.role !== 'user' || user.text !== expected.input.userRequest) {
    violations.push('messages[1] is not the user request verbatim');
  }
  const systemAfterUser = messages.flatMap((m, i) => (i >= 2 && m.role === 'system' ? [i] : []));
  if (systemAfterUser.length !== 1 || systemAfterUser[0] !== 2) {
    violations.push(`system messages after the user request at [${systemAfterUser.join(', ')}]; exactly one card message at [2] expected`);
  } else if (!card?.text?.includes(expected.card)) {
    violations.push('messages[2] does not hold the card verbatim');
  } else if (card.text.trim() === expected.card.trim()) {
    violations.push('messages[2] is the bare card, without a frame');
  }
  // The tail: what follows the head and the card(s); a misplaced card is reported above.
  const tail = messages.slice(2).filter((m) => m.role !== 'system');
  const tailGroups = tail.filter((m) => m.role === 'assistant').length;
  const tailBytes = jsonArrayBytes(tail.map((m) => m.bytes));
  if (tail.length > 0 && tail[0]?.role !== 'assistant')
    violations.push(`the tail starts with a ${tail[0]?.role} message, not a whole group`);
  for (const m of tail) {
    if (m.role !== 'assistant' && m.role !== 'tool') violations.push(`a ${m.role} message in the tail is not part of a turn group`);
  }
  for (const violation of contiguityViolations(tail)) violations.push(`tail: ${violation}`);
  const available = expected.before ? expected.before.filter((m) => m.role === 'assistant').length : TAIL_MIN_GROUPS;
  const minGroups = Math.min(TAIL_MIN_GROUPS, available);
  if (tailGroups < minGroups || tailGroups > TAIL_MAX_GROUPS) {
    violations.push(`the tail has ${tailGroups} turn groups, not ${TAIL_MIN_GROUPS}-${TAIL_MAX_GROUPS}`);
  }
  if (tailBytes > expected.tailMaxBytes) {
    violations.push(`the tail is ${bytes(tailBytes)} bytes > tail max ${bytes(expected.tailMaxBytes)}`);
  }
  if (expected.before) {
    const kept = expected.before.slice(Math.max(0, expected.before.length - tail.length));
    // The fewest groups, when over the cap on their own, are kept whole with their biggest items
    // elided: then only their shape must match. More groups than that must fit whole (a kernel
    // that elides into them should have kept fewer).
    const keptBytes = dialogBytes(kept);
    const elisionAllowed = tailGroups <= minGroups && keptBytes !== null && keptBytes > expected.tailMaxBytes;
    const mustBeVerbatim = !expected.relaxed && !elisionAllowed;
    const same =
      kept.length === tail.length &&
      tail.every((m, i) => {
        const e = kept[i] as ExpectedMessage;
        return mustBeVerbatim ? sameMessage(m, e) : sameShape(m, e);
      });
    if (!same) {
      violations.push(
        `the tail is not the last ${tail.length} messages of the dialog before compaction${mustBeVerbatim ? ', verbatim' : ''}`,
      );
    }
  }
  return { violations, tailGroups, tailBytes };
}
