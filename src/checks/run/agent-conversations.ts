/**
 * An agent framework's model calls, told apart by conversation. A handoff changes the
 * instructions (the leading system messages) the next request is sent with, and an agent used as
 * a tool holds a conversation of its own between its caller's turns. So for an agent started
 * with an input of its own, each turn's first request is held to the conversation that began
 * with the same first message, the instructions set aside: that conversation as it stood after
 * its last turn, the answer and the tool results. A request with a first message no conversation
 * began with begins one (an agent used as a tool); one that shares its first message must
 * continue it, so a dropped or moved tool result still fails. A chat agent's conversation may
 * go on with the user's next messages after its answer.
 */

import type { MessageSummary } from '../history/model.ts';
import { continuation, dialogDifference, type ExpectedMessage, lastCompletedCall } from './dialog.ts';
import { callRequest, type RunView, type Turn } from './run-view.ts';

export interface AgentTurn {
  turn: Turn;
  /** Held to a conversation it continues; false when it begins one. */
  continued: boolean;
  /** How it departs from that conversation; null when it continues it. */
  difference: string | null;
}

/** The messages after the leading system messages (the active agent's instructions). */
function withoutInstructions<T extends ExpectedMessage>(messages: readonly T[]): T[] {
  const first = messages.findIndex((m) => m.role !== 'system');
  return first < 0 ? [] : messages.slice(first);
}

/**
 * The request without the user's messages it adds after the conversation as it stood: a chat
 * agent's next message continues its conversation. Anything else added stays, to be judged.
 */
function withoutNewUserMessages(sent: readonly MessageSummary[], stood: readonly ExpectedMessage[]): readonly MessageSummary[] {
  if (sent.length <= stood.length) return sent;
  return sent.slice(stood.length).every((m) => m.role === 'user') ? sent.slice(0, stood.length) : sent;
}

function keyOf(messages: readonly ExpectedMessage[]): string | undefined {
  const first = messages[0];
  return first && !('unknownContent' in first) ? first.hash : undefined;
}

export function agentConversationTurns(run: RunView): AgentTurn[] {
  const judged: AgentTurn[] = [];
  for (const execution of run.executions) {
    // Each conversation by its first message, as it stood after its last turn (null: unknown).
    const conversations = new Map<string, ExpectedMessage[] | null>();
    for (const turn of execution.turns) {
      const request = callRequest(turn.calls[0] as Turn['calls'][number]);
      if (!request) continue;
      const sent = withoutInstructions(request.messages);
      const key = keyOf(sent);
      if (key === undefined) continue;
      const stood = conversations.get(key);
      if (stood === undefined) {
        judged.push({ turn, continued: false, difference: null });
      } else if (stood !== null) {
        judged.push({ turn, continued: true, difference: dialogDifference(withoutNewUserMessages(sent, stood), stood) });
      }
      const call = lastCompletedCall(turn);
      const after = call ? continuation(call, execution) : null;
      conversations.set(key, after ? withoutInstructions(after) : null);
    }
  }
  return judged;
}
