/**
 * Pydantic AI's own message history, as its Temporal integration puts it in the model
 * activity's input (`messages`) and result: `{ kind: 'request' | 'response', parts: [...] }`, each
 * part named by `part_kind`. It is no provider's wire format: the integration turns it into one
 * inside the activity. Read into the neutral Chat messages of conversation.ts: the first
 * request's `instructions` (Pydantic AI keeps them on every request; the model is sent them once)
 * as the system message, a `user-prompt` as a user message, a `tool-return` or a `retry-prompt`
 * for a tool as a tool message, and a response's parts as one assistant message.
 */
import { isRecord } from './proto-values.ts';

type Json = Record<string, unknown>;

export interface PydanticMessage {
  message: Json;
  bytes: number;
  source: string;
}

/** Whether a list of messages is Pydantic AI's (every one a request or a response with parts). */
export function isPydanticAiMessages(messages: readonly unknown[]): boolean {
  return messages.length > 0 && messages.every(isPydanticAiMessage);
}

export function isPydanticAiMessage(message: unknown): message is Json {
  return isRecord(message) && (message.kind === 'request' || message.kind === 'response') && Array.isArray(message.parts);
}

/** The neutral messages of a Pydantic AI history, each with the bytes of what it was read from. */
export function pydanticAiMessages(messages: readonly Json[]): PydanticMessage[] {
  const firstRequest = messages.find((m) => m.kind === 'request');
  return messages.flatMap((message) => {
    const source = JSON.stringify(message);
    const bytes = Buffer.byteLength(source);
    if (message.kind === 'response') return [{ message: pydanticAiAnswer(message), bytes, source }];
    const read = partsOf(message).flatMap(requestPart);
    if (message === firstRequest && typeof message.instructions === 'string') {
      const instructions = JSON.stringify(message.instructions);
      read.unshift({
        message: { role: 'system', content: message.instructions },
        bytes: Buffer.byteLength(instructions),
        source: `${instructions}#instructions`,
      });
    }
    if (read.length === 0) return [];
    // The message's own bytes, shared out so that the list's bytes stay the request's: what is left to the first.
    const others = read.slice(1).reduce((sum, m) => sum + m.bytes, 0) + read.length - 1;
    (read[0] as PydanticMessage).bytes = Math.max(0, bytes - others);
    return read;
  });
}

/** A response as one assistant message: its text parts, its tool calls. */
export function pydanticAiAnswer(message: Json): Json {
  const parts = partsOf(message);
  const text = parts
    .filter((p) => p.part_kind === 'text' && typeof p.content === 'string')
    .map((p) => p.content as string)
    .join('\n');
  const calls = parts
    .filter((p) => p.part_kind === 'tool-call' || p.part_kind === 'builtin-tool-call')
    .map((p) =>
      p.part_kind === 'tool-call'
        ? {
            id: String(p.tool_call_id ?? ''),
            type: 'function',
            function: { name: p.tool_name, arguments: typeof p.args === 'string' ? p.args : JSON.stringify(p.args ?? {}) },
          }
        : { id: String(p.tool_call_id ?? ''), type: String(p.part_kind), item: p },
    );
  return { role: 'assistant', content: text === '' ? null : text, ...(calls.length > 0 && { tool_calls: calls }) };
}

function partsOf(message: Json): Json[] {
  return (message.parts as unknown[]).filter(isRecord);
}

function requestPart(part: Json): PydanticMessage[] {
  const source = JSON.stringify(part);
  // Equal parts read as equal messages: the part's JSON is the source.
  const entry = (message: Json): PydanticMessage[] => [{ message, bytes: Buffer.byteLength(source), source }];
  switch (part.part_kind) {
    case 'system-prompt':
      return entry({ role: 'system', content: part.content });
    case 'user-prompt':
      return entry({ role: 'user', content: part.content });
    case 'tool-return':
      return entry({ role: 'tool', tool_call_id: String(part.tool_call_id ?? ''), content: textOf(part.content) });
    case 'retry-prompt':
      // A retry of a tool call answers that call; one of the output's validation is the user's word.
      return typeof part.tool_name === 'string' && part.tool_call_id !== undefined
        ? entry({ role: 'tool', tool_call_id: String(part.tool_call_id), content: textOf(part.content) })
        : entry({ role: 'user', content: textOf(part.content) });
    default:
      return entry({ role: `part:${String(part.part_kind)}`, part });
  }
}

/** A tool's return as the model is shown it: text as it is, anything else as JSON. */
function textOf(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content);
}
