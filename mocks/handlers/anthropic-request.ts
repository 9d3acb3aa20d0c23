/**
 * Reading an Anthropic Messages request (POST /v1/messages): `system` stands apart from the
 * user and assistant `messages`, whose content is a string or blocks (text, tool_use,
 * tool_result, image).
 */
import { z } from 'zod';
import { parseBody } from './json-body.ts';
import {
  ANTHROPIC_DEFAULT_TRIGGER,
  ANTHROPIC_EDIT_BETA,
  ANTHROPIC_MIN_TRIGGER,
  ANTHROPIC_PARAM_BETA,
  type CarriedCompaction,
  type ContextWindow,
  jsonBytes,
  lastIndex,
  readSeal,
  SUMMARY_TOKENS,
  tokensOfBytes,
  type WindowedRequest,
} from './provider-compaction.ts';
import { fromMetadata, metadataSchema, offeredTool, partsText } from './wire-format.ts';

const blocks = z.array(z.looseObject({ type: z.string() }));
const schema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  system: z.union([z.string(), blocks]).optional(),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), blocks]) })).min(1),
  stream: z.boolean().optional(),
  metadata: metadataSchema,
  tools: z.array(z.looseObject({ type: z.string().optional() })).optional(),
  context_management: z
    .looseObject({ edits: z.array(z.looseObject({ type: z.string() })).optional() })
    .nullable()
    .optional(),
  compaction: z
    .looseObject({ type: z.literal('summarize'), instructions: z.string().nullable().optional() })
    .nullable()
    .optional(),
});

type Parsed = z.infer<typeof schema>;
type Message = Parsed['messages'][number];
type Content = Message['content'];
type Block = Exclude<Content, string>[number];

export function readAnthropicRequest(text: string, compactionModels: readonly string[]): WindowedRequest {
  const parsed = parseBody(text, schema);
  const { messages } = parsed;
  const window = messagesWindow(parsed, text);
  const rendered = renderedMessages(messages);
  return {
    model: parsed.model,
    stream: parsed.stream === true,
    bytes: Buffer.byteLength(text),
    ...fromMetadata(parsed.metadata, parsed.model, compactionModels),
    firstUserText: partsText(messages.find((m) => m.role === 'user')?.content, ['text']),
    // Past a compaction block, its seal counts what it replaced; a block alone answers nothing.
    answers: (window.latest?.answers ?? 0) + rendered.filter(isAnswer).length,
    // Tool results come back in user messages; only those with text are the user's.
    userMessages: (window.latest?.users ?? 0) + rendered.filter((m) => m.role === 'user' && partsText(m.content, ['text']) !== '').length,
    digest: messages
      .map((m) => contentText(m.content))
      .filter((t) => t !== '')
      .join('\n'),
    maxTokens: parsed.max_tokens,
    // A client tool describes its input; Anthropic's own tools (bash, text editor...) are named by their type.
    tools: (parsed.tools ?? []).map((tool, i) => {
      const custom = tool.type === undefined || tool.type === 'custom';
      const offered = offeredTool(`body.tools.${i}`, tool, 'input_schema', custom);
      return custom ? offered : { ...offered, providerDefined: true as const };
    }),
    window,
  };
}

const EDITS = ['compact_20260112', 'clear_tool_uses_20250919', 'clear_thinking_20251015'];

/** The compaction the request asks for, checked as Anthropic checks it. */
function compactionAsked(parsed: Parsed): Pick<ContextWindow, 'mode' | 'threshold' | 'pause' | 'beta'> {
  const edits = parsed.context_management?.edits ?? [];
  if (parsed.compaction && parsed.context_management) {
    throw new Error('body.compaction: cannot be combined with context_management');
  }
  if (parsed.compaction) return { mode: 'param', threshold: null, pause: false, beta: ANTHROPIC_PARAM_BETA };
  edits.forEach((edit, i) => {
    if (!EDITS.includes(edit.type)) {
      throw new Error(`body.context_management.edits.${i}.type: ${JSON.stringify(edit.type)} is not one of ${EDITS.join(', ')}`);
    }
  });
  const compacts = edits.flatMap((edit, i) => (edit.type === 'compact_20260112' ? [{ edit, i }] : []));
  if (compacts.length > 1) throw new Error(`body.context_management.edits: one compact_20260112 edit at most, got ${compacts.length}`);
  const found = compacts[0];
  if (!found) return { mode: 'none', threshold: null, pause: false, beta: null };
  const { edit, i } = found;
  const path = `body.context_management.edits.${i}`;
  const trigger = edit.trigger as { type?: unknown; value?: unknown } | null | undefined;
  if (trigger !== undefined && trigger !== null) {
    if (typeof trigger !== 'object' || trigger.type !== 'input_tokens') {
      throw new Error(`${path}.trigger.type: a compact_20260112 trigger is of type 'input_tokens', got ${JSON.stringify(trigger.type)}`);
    }
    const { value } = trigger;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < ANTHROPIC_MIN_TRIGGER) {
      throw new Error(`${path}.trigger.value: must be an integer of at least ${ANTHROPIC_MIN_TRIGGER}, got ${JSON.stringify(value)}`);
    }
  }
  const pause = edit.pause_after_compaction;
  if (pause !== undefined && typeof pause !== 'boolean') {
    throw new Error(`${path}.pause_after_compaction: must be a boolean, got ${JSON.stringify(pause)}`);
  }
  if (edit.instructions !== undefined && edit.instructions !== null && typeof edit.instructions !== 'string') {
    throw new Error(`${path}.instructions: must be a string, got ${JSON.stringify(edit.instructions)}`);
  }
  return {
    mode: 'threshold',
    threshold: typeof trigger?.value === 'number' ? trigger.value : ANTHROPIC_DEFAULT_TRIGGER,
    pause: pause === true,
    beta: ANTHROPIC_EDIT_BETA,
  };
}

/** Where the last compaction block is (a block with null content is a no-op), or null. */
function lastCompaction(messages: readonly Message[]): { message: number; block: number } | null {
  for (let m = messages.length - 1; m >= 0; m--) {
    const content = (messages[m] as Message).content;
    if (typeof content === 'string') continue;
    const block = lastIndex(content, isCompaction);
    if (block >= 0) return { message: m, block };
  }
  return null;
}

function isCompaction(block: Block): boolean {
  return block.type === 'compaction' && block.content !== null && block.content !== undefined;
}

/**
 * What the API renders after the last compaction block (it drops everything before it; the
 * block counts as its summary): the rest of the message that holds it, when there is any (a
 * block alone answers nothing), and the messages after it.
 */
function renderedMessages(messages: readonly Message[]): Message[] {
  const last = lastCompaction(messages);
  if (!last) return [...messages];
  const holder = messages[last.message] as Message;
  const rest = (holder.content as Block[]).slice(last.block + 1);
  return [...(rest.length > 0 ? [{ ...holder, content: rest }] : []), ...messages.slice(last.message + 1)];
}

function isAnswer(m: Message): boolean {
  return m.role === 'assistant';
}

function messagesWindow(parsed: Parsed, text: string): ContextWindow {
  const asked = compactionAsked(parsed);
  const { messages } = parsed;
  const carried: CarriedCompaction[] = messages.flatMap((m, mi) =>
    typeof m.content === 'string'
      ? []
      : m.content.flatMap((block, bi) => {
          if (block.type !== 'compaction' || block.content === null || block.content === undefined) return [];
          const path = `body.messages.${mi}.content.${bi}`;
          if (typeof block.content !== 'string' || block.content === '') {
            throw new Error(`${path}.content: a compaction block's content is its summary, a non-empty string or null`);
          }
          const token = typeof block.encrypted_content === 'string' ? block.encrypted_content : block.signature;
          if (typeof token !== 'string' || token === '') {
            throw new Error(
              `${path}.encrypted_content: a compaction block carries the encrypted_content (or signature) its compaction returned`,
            );
          }
          return [
            { path: `${path}.${token === block.encrypted_content ? 'encrypted_content' : 'signature'}`, token, content: block.content },
          ];
        }),
  );
  const bytes = Buffer.byteLength(text);
  const last = lastCompaction(messages);
  const rendered = renderedMessages(messages);
  const summary = last ? SUMMARY_TOKENS : 0;
  const allBytes = messages.reduce((sum, m) => sum + jsonBytes(m), 0);
  const renderedBytes = rendered.reduce((sum, m) => sum + jsonBytes(m), 0);
  const inputTokens = tokensOfBytes(bytes - allBytes + renderedBytes) + summary;
  // The tail: the latest answer (with the compaction block it holds) and what follows.
  const tail = lastIndex(rendered, isAnswer);
  // The summary is in the tail when the answer that holds the block is the tail's.
  const holder = last ? (messages[last.message] as Message) : null;
  const heldByTail = holder?.role === 'assistant' && tail === 0 && (holder.content as Block[]).length > (last?.block ?? 0) + 1;
  const tailTokens =
    tokensOfBytes(rendered.slice(Math.max(tail, 0)).reduce((sum, m) => sum + jsonBytes(m), 0)) + (heldByTail ? summary : 0);
  return {
    ...asked,
    carried,
    latest: carried.length > 0 ? readSeal((carried.at(-1) as CarriedCompaction).token) : null,
    inputTokens,
    baseTokens: tokensOfBytes(bytes - allBytes),
    prefixTokens: tail < 0 ? 0 : Math.max(0, inputTokens - tailTokens),
    cacheControl: text.includes('"cache_control"'),
  };
}

/** Text blocks, and the text of tool results (what the tools printed). */
function contentText(content: Content): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => (block.type === 'tool_result' ? partsText(block.content, ['text']) : partsText([block], ['text'])))
    .filter((t) => t !== '')
    .join('\n');
}
