/**
 * The API's tool-contiguity contract over one request's messages: every tool message answers a
 * tool call of the assistant message that opens its group (the assistant message just before
 * the run of tool messages it belongs to), once; every tool call is answered before the next
 * non-tool message.
 */
import type { MessageSummary } from '../history/model.ts';

/** Every violation in `messages`, each naming the message index. */
export function contiguityViolations(messages: readonly MessageSummary[]): string[] {
  const violations: string[] = [];
  let open: { index: number; pending: Set<string> } | null = null;
  const closeGroup = (): void => {
    if (open && open.pending.size > 0) {
      violations.push(`message ${open.index} (assistant): tool call ${[...open.pending].join(', ')} has no tool result after it`);
    }
    open = null;
  };
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const id = message.toolCallId ?? '(none)';
      if (!open) violations.push(`message ${index} (tool ${id}) follows no assistant message with tool calls`);
      else if (!open.pending.delete(id)) {
        violations.push(`message ${index} (tool ${id}) answers no open tool call of message ${open.index}`);
      }
      return;
    }
    closeGroup();
    if (message.role === 'assistant' && message.toolCallIds && message.toolCallIds.length > 0) {
      open = { index, pending: new Set(message.toolCallIds) };
    }
  });
  closeGroup();
  return violations;
}
