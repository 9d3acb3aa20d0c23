/**
 * Elision: replacing a big item of the history (a screenshot, a tool output, an assistant
 * text) with a visible placeholder that says what was there and how big it was, so the model
 * knows something was removed. Never touches system messages or the user's request.
 */
import type { ContentPart, Message } from '../../contract/messages.ts';
import { formatCount, jsonBytes, utf8Bytes } from './bytes.ts';

export type ElidableKind = 'screenshot' | 'tool_output' | 'assistant_text';

export interface ElidableItem {
  /** Index of the message in the history. */
  message: number;
  /** Index of the content part, or null when the message's content is a string. */
  part: number | null;
  kind: ElidableKind;
  /** UTF-8 bytes of the item (the data URL or the text), as the placeholder reports them. */
  bytes: number;
  /** How many bytes of serialized JSON eliding it saves. */
  savings: number;
}

const PLACEHOLDER_PREFIX = '[elided: ';
const KIND_LABEL: Record<ElidableKind, string> = {
  screenshot: 'screenshot',
  tool_output: 'tool output',
  assistant_text: 'assistant text',
};

/** `[elided: screenshot, 812,345 bytes]` */
export function placeholder(kind: ElidableKind, bytes: number): string {
  return `${PLACEHOLDER_PREFIX}${KIND_LABEL[kind]}, ${formatCount(bytes)} bytes]`;
}

export function isPlaceholder(text: string): boolean {
  return text.startsWith(PLACEHOLDER_PREFIX);
}

/** Every item of the given kinds in tool and assistant messages, oldest first. */
export function listElidableItems(messages: readonly Message[], kinds: ReadonlySet<ElidableKind>): ElidableItem[] {
  const items: ElidableItem[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      if (kinds.has('assistant_text') && typeof message.content === 'string' && !isPlaceholder(message.content)) {
        items.push(stringItem(index, 'assistant_text', message.content));
      }
      return;
    }
    if (message.role !== 'tool') return;
    if (typeof message.content === 'string') {
      if (kinds.has('tool_output') && !isPlaceholder(message.content)) {
        items.push(stringItem(index, 'tool_output', message.content));
      }
      return;
    }
    message.content.forEach((part, partIndex) => {
      const kind: ElidableKind = part.type === 'image_url' ? 'screenshot' : 'tool_output';
      if (!kinds.has(kind) || (part.type === 'text' && isPlaceholder(part.text))) return;
      const bytes = utf8Bytes(part.type === 'image_url' ? part.image_url.url : part.text);
      const savings = jsonBytes(part) - jsonBytes(placeholderPart(kind, bytes));
      items.push({ message: index, part: partIndex, kind, bytes, savings });
    });
  });
  return items;
}

function stringItem(message: number, kind: ElidableKind, text: string): ElidableItem {
  const bytes = utf8Bytes(text);
  return {
    message,
    part: null,
    kind,
    bytes,
    savings: jsonBytes(text) - jsonBytes(placeholder(kind, bytes)),
  };
}

function placeholderPart(kind: ElidableKind, bytes: number): ContentPart {
  return { type: 'text', text: placeholder(kind, bytes) };
}

/** Bytes of serialized JSON that screenshots take up in these messages (for a guard blind to them). */
export function screenshotJsonBytes(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) {
    if ((message.role === 'tool' || message.role === 'user') && Array.isArray(message.content)) {
      for (const part of message.content) if (part.type === 'image_url') total += jsonBytes(part);
    }
  }
  return total;
}

/** A copy of `messages` with the items replaced by placeholders; untouched messages are shared. */
export function elideItems(messages: readonly Message[], items: readonly ElidableItem[]): Message[] {
  const result = [...messages];
  for (const item of items) {
    const message = result[item.message];
    if (message === undefined) throw new Error(`no message at index ${item.message}`);
    result[item.message] = elideInMessage(message, item);
  }
  return result;
}

function elideInMessage(message: Message, item: ElidableItem): Message {
  const text = placeholder(item.kind, item.bytes);
  if (item.part === null) {
    if (message.role === 'assistant' || message.role === 'tool') return { ...message, content: text };
    throw new Error(`cannot elide a ${message.role} message`);
  }
  if (message.role !== 'tool' || !Array.isArray(message.content)) {
    throw new Error(`message ${item.message} has no content part ${item.part}`);
  }
  const content = [...message.content];
  content[item.part] = placeholderPart(item.kind, item.bytes);
  return { ...message, content };
}

/**
 * Picks items in the given order until `measuredBytes` drops to `targetBytes`; returns the
 * picked items and the size left.
 */
export function pickUntilFits(
  candidates: readonly ElidableItem[],
  measuredBytes: number,
  targetBytes: number,
): { picked: ElidableItem[]; measuredBytes: number } {
  const picked: ElidableItem[] = [];
  let measured = measuredBytes;
  for (const item of candidates) {
    if (measured <= targetBytes) break;
    if (item.savings <= 0) continue;
    picked.push(item);
    measured -= item.savings;
  }
  return { picked, measuredBytes: measured };
}

/** Largest first; the older item first among equals. */
export function largestFirst(items: readonly ElidableItem[]): ElidableItem[] {
  return [...items].sort((a, b) => b.bytes - a.bytes || a.message - b.message || (a.part ?? -1) - (b.part ?? -1));
}
