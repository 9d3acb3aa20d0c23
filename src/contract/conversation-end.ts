/**
 * A chat agent's workflow lasts until something ends it. When a scenario's conversation names no
 * handler that ends it, longrun terminates the run after its last message is answered, with this
 * reason: the checks read such a termination, on an idle run, as the run's end, not a stall.
 */
export const CONVERSATION_ENDED = 'longrun ended the conversation after its last message';

/** Whether a termination's reason is longrun ending a conversation. */
export function endsConversation(reason: string | undefined): boolean {
  return reason?.startsWith(CONVERSATION_ENDED) === true;
}
