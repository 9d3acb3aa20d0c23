/**
 * A model request's conversation in one neutral form, whatever wire format the history holds:
 * a Chat Completions `messages` list (our kernel's, and the neutral form itself), or the items of
 * the Responses API (`input`, `instructions`) and of the OpenAI Agents SDK, which writes the same
 * items in its own spelling (`callId`, `function_call_result`, `systemInstructions`; the Python
 * SDK's `system_instructions`), and Pydantic AI's own messages (pydantic-ai-messages.ts). Each
 * neutral message is a Chat Completions message; an item-based conversation becomes one message
 * per user, system or tool item and one assistant message per run of the model's own items (its
 * text, reasoning and function calls), so the checks compare dialogs across turns, and with the
 * run input, in one form. Anthropic's Messages form (`system` apart, content blocks: `tool_use`
 * in the assistant's message, `tool_result` in the user's) reads the same way: a user message's
 * tool results become tool messages. Every message keeps the bytes of what it was read from,
 * as it travels.
 */
import { isRecord } from './proto-values.ts';
import { isPydanticAiMessage, isPydanticAiMessages, pydanticAiAnswer, pydanticAiMessages } from './pydantic-ai-messages.ts';

type Json = Record<string, unknown>;

/** A neutral (Chat Completions) message and the UTF-8 bytes of the JSON it was read from. */
export interface NeutralMessage {
  message: Json;
  bytes: number;
  /** The JSON it was read from: equal sources give equal summaries without converting again. */
  source: string;
}

export type ConversationFormat = 'chat-completions' | 'responses-items' | 'anthropic-messages' | 'pydantic-ai-messages';

export interface NeutralConversation {
  format: ConversationFormat;
  messages: NeutralMessage[];
  /** The request's bytes as it travels (the conversation included). */
  requestBytes: number;
}

/** Bytes of a JSON array of items whose serialized sizes are given: brackets and commas included. */
export function jsonArrayBytes(itemBytes: readonly number[]): number {
  let total = 2 + Math.max(0, itemBytes.length - 1);
  for (const bytes of itemBytes) total += bytes;
  return total;
}

const TEXT_PARTS = new Set(['input_text', 'output_text', 'text', 'refusal']);

/**
 * The bytes of a request with a `messages` list, from its messages' bytes: the request around an
 * empty list, plus the list's bytes, so that the request is not serialized whole again.
 */
export function chatRequestBytes(request: Json, messageBytes: readonly number[]): number {
  return Buffer.byteLength(JSON.stringify({ ...request, messages: [] })) - 2 + jsonArrayBytes(messageBytes);
}

/** Reads a request's conversation; throws a one-line reason when it holds neither form. */
export function conversationOf(request: unknown): NeutralConversation {
  if (!isRecord(request)) throw new Error('request is not an object');
  if (request.messages !== undefined || request.input === undefined) {
    if (!Array.isArray(request.messages)) throw new Error('messages is not an array (and no Responses input)');
    if (isPydanticAiMessages(request.messages)) {
      return {
        format: 'pydantic-ai-messages',
        messages: pydanticAiMessages(request.messages),
        requestBytes: Buffer.byteLength(JSON.stringify(request)),
      };
    }
    const listed = request.messages.map((message, index) => {
      if (!isRecord(message) || typeof message.role !== 'string') throw new Error(`messages[${index}] has no role`);
      const source = JSON.stringify(message);
      return { message, bytes: Buffer.byteLength(source), source };
    });
    const requestBytes = chatRequestBytes(
      request,
      listed.map((m) => m.bytes),
    );
    if (!isAnthropic(request, listed)) return { format: 'chat-completions', messages: listed, requestBytes };
    const system = anthropicSystem(request.system);
    return { format: 'anthropic-messages', messages: [...system, ...listed.flatMap(anthropicMessages)], requestBytes };
  }
  const input = request.input;
  if (typeof input !== 'string' && !Array.isArray(input)) throw new Error('input is neither a string nor a list of items');
  // The Responses API's name, the TypeScript Agents SDK's, the Python Agents SDK's.
  const instructions = request.instructions ?? request.systemInstructions ?? request.system_instructions;
  const system: NeutralMessage[] = typeof instructions === 'string' ? [textMessage('system', instructions)] : [];
  if (typeof input === 'string') {
    const user = textMessage('user', input);
    return { format: 'responses-items', messages: [...system, user], requestBytes: Buffer.byteLength(JSON.stringify(request)) };
  }
  const items = input.map((item, index) => {
    if (!isRecord(item)) throw new Error(`input[${index}] is not an object`);
    return item;
  });
  const sources = items.map((item) => JSON.stringify(item));
  const envelope = Buffer.byteLength(JSON.stringify({ ...request, input: [] })) - 2;
  const requestBytes = envelope + jsonArrayBytes(sources.map((s) => Buffer.byteLength(s)));
  return { format: 'responses-items', messages: [...system, ...itemMessages(items, sources)], requestBytes };
}

/** The model's answer as one neutral assistant message: a Chat message, a Responses output (items), an Anthropic message. */
export function answerOf(answer: unknown): NeutralMessage {
  if (Array.isArray(answer)) {
    const items = answer.filter(isRecord);
    if (items.length !== answer.length || items.length === 0 || !items.every(isModelItem)) {
      throw new Error("the answer is not the model's output items");
    }
    const [message] = itemMessages(
      items,
      items.map((item) => JSON.stringify(item)),
    );
    return message as NeutralMessage;
  }
  if (isPydanticAiMessage(answer) && answer.kind === 'response') {
    const source = JSON.stringify(answer);
    return { message: pydanticAiAnswer(answer), bytes: Buffer.byteLength(source), source };
  }
  if (!isRecord(answer) || answer.role !== 'assistant') throw new Error('the answer is not an assistant message');
  const source = JSON.stringify(answer);
  // Blocks read whether the answer is the API's response (`type: 'message'`) or the message sent back (role and content).
  if (!hasBlocks(answer)) return { message: answer, bytes: Buffer.byteLength(source), source };
  // As the next request holds it: the role and the content blocks, without the response's own fields.
  const held = { role: 'assistant', content: answer.content };
  return { message: anthropicAssistant(held), bytes: Buffer.byteLength(JSON.stringify(held)), source };
}

const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking']);

/** Content blocks of Anthropic's form (a tool call or result): not a Chat Completions message. */
export function hasBlocks(message: Json): boolean {
  return Array.isArray(message.content) && message.content.some((b) => isRecord(b) && ANTHROPIC_BLOCKS.has(String(b.type)));
}

/** `system` apart from the messages, or a tool call or result as content blocks: Anthropic's form. */
function isAnthropic(request: Json, listed: readonly NeutralMessage[]): boolean {
  return request.system !== undefined || listed.some((m) => hasBlocks(m.message));
}

function anthropicSystem(system: unknown): NeutralMessage[] {
  if (system === undefined) return [];
  const source = JSON.stringify(system);
  return [{ message: { role: 'system', content: contentOf(system) }, bytes: Buffer.byteLength(source), source }];
}

/** One Anthropic message: an assistant's as it is read; a user's tool results each a tool message, then its other blocks. */
function anthropicMessages(read: NeutralMessage): NeutralMessage[] {
  const { message } = read;
  if (message.role === 'assistant') return [{ ...read, message: anthropicAssistant(message) }];
  if (!Array.isArray(message.content)) return [read];
  const blocks = message.content.filter(isRecord);
  const results = blocks.filter((b) => b.type === 'tool_result');
  const rest = blocks.filter((b) => b.type !== 'tool_result');
  const out: NeutralMessage[] = results.map((block) => {
    const source = JSON.stringify(block);
    const tool = { role: 'tool', tool_call_id: String(block.tool_use_id), content: contentOf(block.content ?? '') };
    return { message: tool, bytes: Buffer.byteLength(source), source: `${read.source}#${String(block.tool_use_id)}` };
  });
  if (rest.length > 0 || out.length === 0) {
    out.push({ message: { role: String(message.role), content: contentOf(rest) }, bytes: 0, source: `${read.source}#rest` });
  }
  // The message's own bytes, shared out so that the list's bytes stay the request's: its envelope to the first.
  const others = out.slice(1).reduce((sum, m) => sum + m.bytes, 0) + out.length - 1;
  (out[0] as NeutralMessage).bytes = read.bytes - others;
  return out;
}

function anthropicAssistant(message: Json): Json {
  const blocks = Array.isArray(message.content) ? message.content.filter(isRecord) : [];
  const text = typeof message.content === 'string' ? message.content : textOf(blocks.filter((b) => b.type === 'text'));
  const calls = blocks
    .filter((b) => b.type === 'tool_use')
    .map((b) => ({ id: String(b.id), type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }));
  return { role: 'assistant', content: text === '' || text === null ? null : text, ...(calls.length > 0 && { tool_calls: calls }) };
}

function textMessage(role: string, content: string): NeutralMessage {
  const source = JSON.stringify(content);
  return { message: { role, content }, bytes: Buffer.byteLength(source), source };
}

function isMessageItem(item: Json): boolean {
  return (item.type === undefined || item.type === 'message') && typeof item.role === 'string';
}

/** The model's own items: its messages, reasoning, and calls of functions or built-in tools. */
function isModelItem(item: Json): boolean {
  if (isMessageItem(item)) return item.role === 'assistant';
  return item.type === 'reasoning' || (typeof item.type === 'string' && item.type.endsWith('_call'));
}

/** Consecutive model items make one assistant message; every other item is a message of its own. */
function itemMessages(items: readonly Json[], sources: readonly string[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  let group: number[] = [];
  const flush = () => {
    if (group.length === 0) return;
    const parts = group.map((i) => sources[i] as string);
    const bytes = parts.reduce((sum, s) => sum + Buffer.byteLength(s), 0) + parts.length - 1;
    out.push({ message: assistantOf(group.map((i) => items[i] as Json)), bytes, source: parts.join(',') });
    group = [];
  };
  items.forEach((item, index) => {
    if (isModelItem(item)) {
      group.push(index);
      return;
    }
    flush();
    const source = sources[index] as string;
    out.push({ message: otherItem(item), bytes: Buffer.byteLength(source), source });
  });
  flush();
  return out;
}

function assistantOf(items: readonly Json[]): Json {
  const texts = items.filter(isMessageItem).map((item) => textOf(item.content));
  const calls = items
    .filter((item) => item.type !== 'reasoning' && !isMessageItem(item))
    .map((item) =>
      item.type === 'function_call'
        ? { id: callIdOf(item), type: 'function', function: { name: item.name, arguments: item.arguments } }
        : // A built-in tool's call (web search, computer...): the item itself, its id as the call's.
          { id: callIdOf(item), type: item.type, item },
    );
  const text = texts.filter((t) => t !== null).join('\n');
  return { role: 'assistant', content: text === '' ? null : text, ...(calls.length > 0 && { tool_calls: calls }) };
}

function otherItem(item: Json): Json {
  if (isMessageItem(item)) {
    const role = item.role === 'developer' ? 'system' : String(item.role);
    return { role, content: contentOf(item.content) };
  }
  if (item.type === 'function_call_output' || item.type === 'function_call_result') {
    return { role: 'tool', tool_call_id: callIdOf(item), content: contentOf(item.output) };
  }
  // Any other item (a built-in tool's output, a handoff...) stays what it is, under its type.
  return { role: `item:${String(item.type)}`, item };
}

function callIdOf(item: Json): string {
  return String(item.callId ?? item.call_id ?? item.id ?? '');
}

/** Text parts only: their text; any other part makes the content a list of Chat parts. */
function contentOf(content: unknown): unknown {
  const parts = Array.isArray(content) ? content : isRecord(content) ? [content] : null;
  if (parts === null) return content;
  const text = textOf(parts);
  if (text !== null) return text;
  return parts.map((part) => {
    if (!isRecord(part)) return part;
    if (TEXT_PARTS.has(String(part.type))) return { type: 'text', text: part.text };
    if (part.type === 'image' && isRecord(part.source)) {
      const { source } = part;
      const url = source.type === 'base64' ? `data:${String(source.media_type)};base64,${String(source.data)}` : source.url;
      return { type: 'image_url', image_url: { url } };
    }
    if (part.type === 'input_image' || part.type === 'image') {
      const url = part.image_url ?? part.image;
      return { type: 'image_url', image_url: { url: isRecord(url) ? url.url : url } };
    }
    return part;
  });
}

/** The text of a string or of parts that are all text; null when any part is not. */
function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const part of content) {
    if (!isRecord(part) || !TEXT_PARTS.has(String(part.type)) || typeof part.text !== 'string') return null;
    texts.push(part.text);
  }
  return texts.join('');
}
