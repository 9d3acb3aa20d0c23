/**
 * A run as a conversation of several user messages: an agent that holds a chat (each message an
 * update or a signal of a workflow that lasts) answers each with a final text, and only then does
 * the next message arrive. The plan's turns are shared among the messages, in order and as
 * evenly as they go; the turn that ends a message's share is answered without tool calls. The
 * mock and the runner derive the same split from the plan alone, so the mock needs no state.
 */
import type { RunPlan } from './plan-run.ts';
import { userRequest } from './prose.ts';
import { hash32, Rng } from './random.ts';

/**
 * The turn that ends each message's share of `turns` planned turns, 1-based and increasing: at
 * least one turn a message, the last message ends at the plan's last turn (or at `messages`).
 */
export function messageEndTurns(turns: number, messages: number): number[] {
  if (!Number.isInteger(messages) || messages < 1) throw new Error(`messages: must be an integer >= 1, got ${messages}`);
  const total = Math.max(turns, messages);
  const ends: number[] = [];
  for (let k = 1; k <= messages; k++) {
    const even = Math.round((k * total) / messages);
    ends.push(Math.max(even, (ends.at(-1) ?? 0) + 1));
  }
  return ends;
}

/**
 * The user's message `index` (0-based) of the run's conversation: the first is the run's user
 * request, which carries its run marker; the later ones ask on in the run's own words, seeded by
 * run and index (they need no marker: the mock ties a request to its run by the first message).
 */
export function conversationMessage(plan: RunPlan, index: number): string {
  if (index === 0) return plan.userRequest;
  const rng = new Rng(hash32(plan.seed, plan.runId, index, 'follow-up'));
  return `Next: ${userRequest(plan.story, rng, plan.textMix)}`;
}
