/**
 * Summaries of chat messages. A long run re-sends its whole dialog every turn, so the same
 * message appears in many requests: summaries are interned by hash, and a request costs one
 * pointer per message once loaded.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../contract/journal-hash.ts';
import { answerOf, chatRequestBytes, conversationOf, jsonArrayBytes, type NeutralMessage } from './conversation.ts';
import { jsonStringTextBytes } from './json-bytes.ts';
import type { MessageSummary, PartSummary, RequestSummary } from './model.ts';
import { isRecord } from './proto-values.ts';

/** The hex sha256 of the text, or of pieces one after another. */
export function sha256(...pieces: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const piece of pieces) hash.update(piece);
  return hash.digest('hex');
}

export { jsonArrayBytes } from './conversation.ts';

export class MessageInterner {
  private readonly byHash = new Map<string, MessageSummary>();
  /** A message re-sent by every later request is found by its JSON text, without hashing it again. */
  private readonly byJson = new Map<string, MessageSummary>();
  /** The same, for messages read from a conversation of items (their JSON is the items'). */
  private readonly byItems = new Map<string, MessageSummary>();

  /** `json`: the message's JSON.stringify, when the caller has it. */
  summarize(message: unknown, json = JSON.stringify(message)): MessageSummary {
    return this.intern(this.byJson, { message: message as Record<string, unknown>, bytes: Buffer.byteLength(json), source: json });
  }

  /**
   * A message whose canonical JSON's hash and JSON's bytes the caller has (read from the message's
   * bytes); `parts`: a tool message's content parts, when `message` leaves its content out
   * (undefined when unknown).
   */
  summarizeHashed(message: unknown, hash: string, bytes: number, parts?: PartSummary[]): MessageSummary {
    const summary = this.byHash.get(hash) ?? describe(message, hash, bytes, parts);
    this.byHash.set(hash, summary);
    return summary;
  }

  private intern(seen: Map<string, MessageSummary>, read: NeutralMessage): MessageSummary {
    const known = seen.get(read.source);
    if (known) return known;
    const summary = this.summarizeHashed(read.message, sha256(canonicalJson(read.message)), read.bytes);
    seen.set(read.source, summary);
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

  /** A request of either form (conversation.ts), its conversation as neutral messages. */
  summarizeRequest(request: unknown): RequestSummary {
    const conversation = conversationOf(request);
    const seen = conversation.format === 'chat-completions' ? this.byJson : this.byItems;
    const messages = conversation.messages.map((read) => this.intern(seen, read));
    return {
      format: conversation.format,
      bytes: conversation.requestBytes,
      messagesBytes: jsonArrayBytes(messages.map((m) => m.bytes)),
      messages,
    };
  }

  /** The model's answer (a Chat message, a Responses output, an Anthropic message) as one neutral assistant message. */
  summarizeAnswer(answer: unknown): MessageSummary {
    const read = answerOf(answer);
    return this.intern(read.message === answer ? this.byJson : this.byItems, read);
  }
}

/** A Chat Completions request from its summarized messages; `request.messages` is not read. */
export function chatRequestSummary(request: Record<string, unknown>, messages: MessageSummary[]): RequestSummary {
  const bytes = messages.map((m) => m.bytes);
  return { format: 'chat-completions', bytes: chatRequestBytes(request, bytes), messagesBytes: jsonArrayBytes(bytes), messages };
}

/**
 * The room the checks give the placeholder of one elided item: more than the contract's
 * `{"type":"text","text":"[elided: screenshot, 1,234,567 bytes]"}`, so a guard's floor is never underestimated.
 */
export const ELIDED_ITEM_BYTES = 100;

/** A text this short may be a placeholder: more than the longest the contract's form writes. */
export const PLACEHOLDER_MAX_BYTES = 100;

/** A text part: its bytes, and the text itself when it may be a placeholder. */
export function textPart(text: string): PartSummary {
  const bytes = Buffer.byteLength(text);
  return bytes <= PLACEHOLDER_MAX_BYTES ? { kind: 'text', bytes, text } : { kind: 'text', bytes };
}

function partOf(part: unknown): PartSummary {
  if (!isRecord(part)) return { kind: 'other' };
  if (part.type === 'text' && typeof part.text === 'string') return textPart(part.text);
  if (part.type !== 'image_url') return { kind: 'other' };
  const url = isRecord(part.image_url) ? part.image_url.url : undefined;
  return typeof url === 'string' ? { kind: 'screenshot', bytes: Buffer.byteLength(url) } : { kind: 'screenshot' };
}

/**
 * A tool message's string content, as one part, from its raw JSON bytes (quotes included):
 * measured without decoding it (tool outputs are most of a run's text), decoded only when it may
 * be a placeholder.
 */
export function stringContentParts(raw: Buffer): PartSummary[] {
  const bytes = jsonStringTextBytes(raw);
  if (bytes === undefined) return [{ kind: 'text' }];
  return [bytes <= PLACEHOLDER_MAX_BYTES ? textPart(JSON.parse(raw.toString('utf8'))) : { kind: 'text', bytes }];
}

/** The parts of a tool message's content (string content is one text); undefined when it is neither. */
export function contentParts(content: unknown): PartSummary[] | undefined {
  if (typeof content === 'string') return [textPart(content)];
  return Array.isArray(content) ? content.map(partOf) : undefined;
}

function describe(message: unknown, hash: string, bytes: number, outputParts?: PartSummary[]): MessageSummary {
  const fields = isRecord(message) ? message : {};
  const role = typeof fields.role === 'string' ? fields.role : 'unknown';
  const summary: MessageSummary = { role, bytes, hash };
  if (Array.isArray(fields.tool_calls)) {
    summary.toolCallIds = fields.tool_calls.map((call) => (isRecord(call) ? String(call.id) : ''));
    summary.toolCallNames = fields.tool_calls.map((call) =>
      isRecord(call) && isRecord(call.function) && typeof call.function.name === 'string' ? call.function.name : '',
    );
  }
  if (typeof fields.tool_call_id === 'string') summary.toolCallId = fields.tool_call_id;
  if (role === 'tool') {
    const parts = outputParts ?? contentParts(fields.content);
    if (parts !== undefined) {
      const bare = Buffer.byteLength(JSON.stringify({ ...fields, content: '' }));
      summary.elidedBytes = Math.min(bytes, bare + Math.max(1, parts.length) * ELIDED_ITEM_BYTES);
      summary.screenshots = parts.filter((part) => part.kind === 'screenshot').length;
      summary.parts = parts;
    }
  }
  if (role === 'assistant' && typeof fields.content === 'string') summary.parts = [textPart(fields.content)];
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
