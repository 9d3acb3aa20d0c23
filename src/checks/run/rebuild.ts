/**
 * The rebuild contract (compaction.md section 3) for the messages of one rebuilt dialog:
 * [system prompt verbatim, user request verbatim, ONE framed card system message, tail], where
 * the tail is the last 2-8 whole turn groups of the dialog before compaction, verbatim, at most
 * `tailMaxBytes` (sum of the tail messages' serialized bytes).
 */
import { TAIL_MAX_GROUPS, TAIL_MIN_GROUPS } from '../../contract/limits.ts';
import type { MessageSummary, RunInputSummary } from '../history/model.ts';
import { contiguityViolations } from './contiguity.ts';
import { type ExpectedMessage, sameMessage } from './dialog.ts';

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
    violations.push(
      `system messages after the user request at [${systemAfterUser.join(', ')}]; exactly one card message at [2] expected`,
    );
  } else if (!card?.text?.includes(expected.card)) {
    violations.push('messages[2] does not hold the card verbatim');
  } else if (card.text.trim() === expected.card.trim()) {
    violations.push('messages[2] is the bare card, without a frame');
  }
  const tail = messages.slice(3);
  const tailGroups = tail.filter((m) => m.role === 'assistant').length;
  const tailBytes = tail.reduce((sum, m) => sum + m.bytes, 0);
  if (tail.length > 0 && tail[0]?.role !== 'assistant') violations.push(`the tail starts with a ${tail[0]?.role} message, not a whole group`);
  tail.forEach((m, i) => {
    if (m.role !== 'assistant' && m.role !== 'tool') violations.push(`messages[${i + 3}] (${m.role}) in the tail is not part of a turn group`);
  });
  for (const violation of contiguityViolations(tail)) violations.push(`tail: ${violation}`);
  const available = expected.before ? expected.before.filter((m) => m.role === 'assistant').length : TAIL_MIN_GROUPS;
  const minGroups = Math.min(TAIL_MIN_GROUPS, available);
  if (tailGroups < minGroups || tailGroups > TAIL_MAX_GROUPS) {
    violations.push(`the tail has ${tailGroups} turn groups, not ${TAIL_MIN_GROUPS}-${TAIL_MAX_GROUPS}`);
  }
  if (tailBytes > expected.tailMaxBytes) {
    violations.push(`the tail is ${tailBytes.toLocaleString('en-US')} bytes > tail max ${expected.tailMaxBytes.toLocaleString('en-US')}`);
  }
  if (expected.before) {
    const offset = expected.before.length - tail.length;
    const verbatim =
      offset >= 0 && tail.every((m, i) => sameMessage(m, expected.before?.[offset + i] as ExpectedMessage, expected.relaxed));
    if (!verbatim) violations.push('the tail is not the last messages of the dialog before compaction, verbatim');
  }
  return { violations, tailGroups, tailBytes };
}
