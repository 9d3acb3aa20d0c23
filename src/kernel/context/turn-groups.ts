/**
 * A history seen as the rebuild sees it: the head (system prompt, user request) and the turn
 * groups after it. A group is an assistant message with the tool results that answer it, which
 * the model API requires to stay together and in order. System messages after the head are the
 * cards of earlier compactions: a new card displaces them, so they are left out.
 */
import type { Message } from '../../contract/messages.ts';

export interface SplitHistory {
  systemPrompt: Extract<Message, { role: 'system' }>;
  userRequest: Extract<Message, { role: 'user' }>;
  groups: Message[][];
}

export function splitTurnGroups(messages: readonly Message[]): SplitHistory {
  const [systemPrompt, userRequest, ...rest] = messages;
  if (systemPrompt?.role !== 'system') throw new Error('messages[0] must be the system prompt');
  if (userRequest?.role !== 'user') throw new Error("messages[1] must be the user's request");
  const groups: Message[][] = [];
  for (const message of rest) {
    if (message.role === 'system') continue;
    if (message.role === 'tool' && groups.length > 0) groups[groups.length - 1]?.push(message);
    else groups.push([message]);
  }
  return { systemPrompt, userRequest, groups };
}
