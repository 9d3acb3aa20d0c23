/**
 * The digest the compaction model reads: every message capped to its head and tail, the
 * whole capped to its head and tail messages, screenshots counted and never embedded (their
 * bytes would cost the cheap model a fortune and tell it nothing it can keep verbatim).
 */
import { DIGEST_MESSAGE_HEAD_BYTES, DIGEST_MESSAGE_TAIL_BYTES } from '../../contract/limits.ts';
import type { ContentPart, Message } from '../../contract/messages.ts';
import { formatCount, type SizeUnit, utf8Bytes, utf8Head, utf8Tail } from './bytes.ts';

export interface DigestOptions {
  /** Bytes kept from the start and from the end of each message's text. */
  messageHeadBytes: number;
  messageTailBytes: number;
  /** Bytes of tool-call arguments kept per call. */
  argumentBytes: number;
  /** The digest as a whole: head and tail messages beyond it are kept, the middle omitted. */
  maxBytes: number;
  /** What a message's windows count: UTF-8 bytes, or UTF-16 units in the `digest-in-units` control. */
  windowUnit: SizeUnit;
}

export const DIGEST_DEFAULTS: DigestOptions = {
  messageHeadBytes: DIGEST_MESSAGE_HEAD_BYTES,
  messageTailBytes: DIGEST_MESSAGE_TAIL_BYTES,
  argumentBytes: 256,
  maxBytes: 96 * 1024,
  windowUnit: 'utf8-bytes',
};

interface Cuts {
  size(text: string): number;
  head(text: string, size: number): string;
  tail(text: string, size: number): string;
}

const CUTS: Record<SizeUnit, Cuts> = {
  'utf8-bytes': { size: utf8Bytes, head: utf8Head, tail: utf8Tail },
  'utf16-units': {
    size: (text) => text.length,
    head: (text, size) => text.slice(0, size),
    tail: (text, size) => text.slice(text.length - size),
  },
};

const INLINE_IMAGE = /data:image\/[a-z0-9.+-]+;base64,[a-z0-9+/=]*/gi;

export function buildDigest(messages: readonly Message[], options: DigestOptions = DIGEST_DEFAULTS): string {
  const blocks = messages.map((message, index) => renderMessage(message, index, options));
  const screenshots = messages.reduce((sum, message) => sum + screenshotCount(message), 0);
  const header = `Digest of ${messages.length} messages; ${screenshots} screenshots counted, not included.`;
  return [header, ...capBlocks(blocks, options.maxBytes - utf8Bytes(header))].join('\n\n');
}

function renderMessage(message: Message, index: number, options: DigestOptions): string {
  const lines = [`### [${index}] ${describeRole(message)}`];
  const text = messageText(message);
  if (text !== '') lines.push(capText(text, options));
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      const args = capText(call.function.arguments, {
        ...options,
        messageHeadBytes: options.argumentBytes,
        messageTailBytes: 0,
      });
      lines.push(`tool call ${call.id}: ${call.function.name} ${args}`);
    }
  }
  const screenshots = screenshotCount(message);
  if (screenshots > 0) lines.push(`(${screenshots} screenshot${screenshots === 1 ? '' : 's'}, not included)`);
  return lines.join('\n');
}

function describeRole(message: Message): string {
  return message.role === 'tool' ? `tool result for ${message.tool_call_id}` : message.role;
}

function messageText(message: Message): string {
  const content = message.content;
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((part): part is Extract<ContentPart, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

function screenshotCount(message: Message): number {
  if (message.role !== 'tool' && message.role !== 'user') return 0;
  return Array.isArray(message.content) ? message.content.filter((part) => part.type === 'image_url').length : 0;
}

function capText(raw: string, options: Pick<DigestOptions, 'messageHeadBytes' | 'messageTailBytes' | 'windowUnit'>): string {
  const text = raw.replace(INLINE_IMAGE, '[inline image omitted]');
  const cuts = CUTS[options.windowUnit];
  if (cuts.size(text) <= options.messageHeadBytes + options.messageTailBytes) return text;
  const head = cuts.head(text, options.messageHeadBytes);
  const tail = options.messageTailBytes > 0 ? cuts.tail(text, options.messageTailBytes) : '';
  const omitted = utf8Bytes(text) - utf8Bytes(head) - utf8Bytes(tail);
  return `${head}\n[... ${formatCount(omitted)} bytes omitted ...]${tail === '' ? '' : `\n${tail}`}`;
}

/** Blocks from the start up to half the budget, then from the end while the rest lasts. */
function capBlocks(blocks: readonly string[], budget: number): string[] {
  const sizes = blocks.map((block) => utf8Bytes(block) + 2);
  if (sizes.reduce((a, b) => a + b, 0) <= budget) return [...blocks];
  let used = 0;
  let head = 0;
  while (head < blocks.length && used + (sizes[head] ?? 0) <= budget / 2) used += sizes[head++] ?? 0;
  let tail = blocks.length;
  while (tail > head && used + (sizes[tail - 1] ?? 0) <= budget) used += sizes[--tail] ?? 0;
  const omitted = tail - head;
  return [...blocks.slice(0, head), `[... ${omitted} messages omitted ...]`, ...blocks.slice(tail)];
}
