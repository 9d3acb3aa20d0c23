/**
 * Summaries of chat messages. A long run re-sends its whole dialog every turn, so the same
 * message appears in many requests: summaries are interned by hash, and a request costs one
 * pointer per message once loaded.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../contract/journal-hash.ts';
import type { MessageSummary, RequestSummary } from './model.ts';
import { isRecord } from './proto-values.ts';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Bytes of a JSON array of items whose serialized sizes are given: brackets and commas included. */
export function jsonArrayBytes(itemBytes: readonly number[]): number {
  let total = 2 + Math.max(0, itemBytes.length - 1);
  for (const bytes of itemBytes) total += bytes;
  return total;
}

export class MessageInterner {
  private readonly byHash = new Map<string, MessageSummary>();
  /** A message re-sent by every later request is found by its JSON text, without hashing it again. */
  private readonly byJson = new Map<string, MessageSummary>();

  summarize(message: unknown): MessageSummary {
    const json = JSON.stringify(message);
    const seen = this.byJson.get(json);
    if (seen) return seen;
    const hash = sha256(canonicalJson(message));
    const summary = this.byHash.get(hash) ?? describe(message, hash, json);
    this.byHash.set(hash, summary);
    this.byJson.set(json, summary);
    return summary;
  }

  /** Summarizes a `messages` array; throws a one-line reason when it is not one. */
  summarizeAll(messages: unknown): MessageSummary[] {
    if (!Array.isArray(messages)) throw new Error('messages is not an array');
    return messages.map((message, index) => {
      if (!isRecord(message) || typeof message.role !== 'string') {
        throw new Error(`messages[${index}] has no role`);
      }
      return this.summarize(message);
    });
  }

  summarizeRequest(request: unknown): RequestSummary {
    if (!isRecord(request)) throw new Error('request is not an object');
    return requestSummary(request, this.summarizeAll(request.messages));
  }
}

/** A request from its summarized messages; `request.messages` is not read. */
export function requestSummary(request: Record<string, unknown>, messages: MessageSummary[]): RequestSummary {
  const messagesBytes = jsonArrayBytes(messages.map((m) => m.bytes));
  return {
    // The request around an empty list, plus the list's bytes: the request is not serialized whole again.
    bytes: Buffer.byteLength(JSON.stringify({ ...request, messages: [] })) - 2 + messagesBytes,
    messagesBytes,
    messages,
  };
}

function describe(message: unknown, hash: string, json: string): MessageSummary {
  const fields = isRecord(message) ? message : {};
  const role = typeof fields.role === 'string' ? fields.role : 'unknown';
  const summary: MessageSummary = { role, bytes: Buffer.byteLength(json), hash };
  if (Array.isArray(fields.tool_calls)) {
    summary.toolCallIds = fields.tool_calls.map((call) => (isRecord(call) ? String(call.id) : ''));
  }
  if (typeof fields.tool_call_id === 'string') summary.toolCallId = fields.tool_call_id;
  if ((role === 'system' || role === 'user') && typeof fields.content === 'string') {
    summary.text = fields.content;
  }
  return summary;
}

/** The text a message carries (string content, or its text parts); screenshots are not text. */
export function messageText(message: unknown): string {
  if (!isRecord(message)) return '';
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => (part as { text: string }).text)
    .join('\n');
}
