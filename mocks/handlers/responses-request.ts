/**
 * Reading an OpenAI Responses request (POST /v1/responses): `input` is a string or a list of
 * items (messages, the model's function calls, their outputs), `instructions` stand apart.
 * A response's id carries its run and turn, so a request that continues one through
 * `previous_response_id` (its input holding only the new items) is placed without state.
 */
import { z } from 'zod';
import { parseBody } from './json-body.ts';
import {
  type CarriedCompaction,
  type ContextWindow,
  jsonBytes,
  lastIndex,
  OPENAI_MIN_COMPACT_THRESHOLD,
  readSeal,
  SUMMARY_TOKENS,
  tokensOfBytes,
  type WindowedRequest,
} from './provider-compaction.ts';
import { fromMetadata, metadataSchema, offeredTool, partsText } from './wire-format.ts';

const item = z.looseObject({ type: z.string().optional(), role: z.string().optional() });
const schema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(item)]),
  instructions: z.string().nullable().optional(),
  previous_response_id: z.string().nullable().optional(),
  stream: z.boolean().nullable().optional(),
  // As OpenAI checks it: an integer from 16 (the Responses API's own minimum), or null.
  max_output_tokens: z.number().int().min(16).nullable().optional(),
  metadata: metadataSchema,
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  text: z
    .looseObject({ format: z.looseObject({ type: z.string(), schema: z.record(z.string(), z.unknown()).optional() }).optional() })
    .nullable()
    .optional(),
  context_management: z
    .array(z.looseObject({ type: z.string(), compact_threshold: z.number().nullable().optional() }))
    .nullable()
    .optional(),
});

export type Item = z.infer<typeof item> & Record<string, unknown>;

const USER_TEXT = ['input_text', 'text'];
const ANY_TEXT = ['input_text', 'output_text', 'text'];
const PREFIX = 'resp_';

export function readResponsesRequest(text: string, compactionModels: readonly string[]): WindowedRequest {
  const parsed = parseBody(text, schema);
  const items = inputItems(parsed.input);
  const bytes = Buffer.byteLength(text);
  const window = responsesWindow(items, bytes, compactionThreshold(parsed.context_management));
  const request: WindowedRequest = {
    model: parsed.model,
    stream: parsed.stream === true,
    bytes,
    ...fromMetadata(parsed.metadata, parsed.model, compactionModels),
    firstUserText: partsText(items.find((i) => isMessage(i) && i.role === 'user')?.content, USER_TEXT),
    ...conversationCounts(items, window),
    digest: items
      .filter((i, index) => !(index === 0 && isMessage(i) && (i.role === 'system' || i.role === 'developer')))
      .map(itemText)
      .filter((t) => t !== '')
      .join('\n'),
    maxTokens: null,
    // Built-in tools (web search, file search...) have no function to call.
    tools: (parsed.tools ?? []).flatMap((tool, i) =>
      tool.type === 'function' ? [offeredTool(`body.tools.${i}`, tool, 'parameters', false)] : [],
    ),
    window,
  };
  const format = parsed.text?.format;
  if (format?.type === 'json_schema') {
    if (!format.schema) throw new Error('body.text.format.schema: a json_schema format needs its schema');
    request.outputSchema = format.schema;
  }
  const previous = parsed.previous_response_id;
  if (previous && (request.runId === null || request.turn === null)) {
    const placed = placeOf(previous);
    if (!placed) throw new Error(`body.previous_response_id: ${JSON.stringify(previous)} is no response of this mock`);
    request.runId ??= placed.runId;
    request.turn ??= placed.turn + 1;
  }
  return request;
}

/** A response's id: its run and turn, readable again by placeOf. */
export function responseId(runId: string, turn: number): string {
  return `${PREFIX}${Buffer.from(`${runId}\n${turn}`).toString('hex')}`;
}

function placeOf(id: string): { runId: string; turn: number } | null {
  if (!id.startsWith(PREFIX) || !/^[0-9a-f]*$/.test(id.slice(PREFIX.length))) return null;
  const [runId, turn, ...rest] = Buffer.from(id.slice(PREFIX.length), 'hex').toString().split('\n');
  const number = Number(turn);
  return runId && rest.length === 0 && Number.isInteger(number) && number >= 1 ? { runId, turn: number } : null;
}

/** A string input is one user message. */
export function inputItems(input: string | Item[]): Item[] {
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
}

/** The `compact_threshold` of the request's compaction entry, checked as OpenAI checks it; undefined: none asked. */
export function compactionThreshold(entries: z.infer<typeof schema>['context_management']): number | null | undefined {
  if (!entries || entries.length === 0) return undefined;
  entries.forEach((entry, i) => {
    if (entry.type !== 'compaction') {
      throw new Error(`body.context_management.${i}.type: ${JSON.stringify(entry.type)} is not supported: the only type is 'compaction'`);
    }
    const threshold = entry.compact_threshold;
    if (threshold !== undefined && threshold !== null && (!Number.isInteger(threshold) || threshold < OPENAI_MIN_COMPACT_THRESHOLD)) {
      throw new Error(
        `body.context_management.${i}.compact_threshold: must be an integer of at least ${OPENAI_MIN_COMPACT_THRESHOLD}, got ${threshold}`,
      );
    }
  });
  if (entries.length > 1) throw new Error(`body.context_management: one compaction entry at most, got ${entries.length}`);
  return entries[0]?.compact_threshold ?? null;
}

/** The index of the last compaction item, -1 when none. */
function lastCompaction(items: readonly Item[]): number {
  return lastIndex(items, (i) => i.type === 'compaction');
}

/** The model's answers and the user's messages so far: past a compaction item, its seal counts what it replaced. */
export function conversationCounts(items: readonly Item[], window: ContextWindow): { answers: number; userMessages: number } {
  return {
    answers: (window.latest?.answers ?? 0) + answerGroups(items.slice(lastCompaction(items) + 1)),
    userMessages: (window.latest?.users ?? 0) + renderedItems(items, window).filter(isUserText).length,
  };
}

/**
 * What the request renders: the items after the last compaction item, and before it only the
 * user messages a /responses/compact window keeps (the item itself counts as its summary).
 */
export function renderedItems(items: readonly Item[], window: ContextWindow): Item[] {
  const latest = lastCompaction(items);
  const keepsUsers = window.latest?.origin === 'responses-compact';
  return items.filter((item, index) => index > latest || (index < latest && keepsUsers && isUserText(item)));
}

export function isUserText(i: Item): boolean {
  return isMessage(i) && i.role === 'user' && partsText(i.content, USER_TEXT) !== '';
}

export function userText(i: Item): string {
  return partsText(i.content, USER_TEXT);
}

/**
 * The request's compaction items, its cost after compaction and its stable prefix (the input
 * before its latest answer, a compaction item counted with the answer it came with).
 * `threshold` undefined: no compaction asked; null: asked with no threshold (never by threshold).
 */
export function responsesWindow(items: readonly Item[], bytes: number, threshold: number | null | undefined): ContextWindow {
  const carried: CarriedCompaction[] = items.flatMap((item, i) => {
    if (item.type !== 'compaction') return [];
    if (typeof item.encrypted_content !== 'string' || item.encrypted_content === '') {
      throw new Error(`body.input.${i}.encrypted_content: a compaction item carries the encrypted_content its compaction returned`);
    }
    return [{ path: `body.input.${i}.encrypted_content`, token: item.encrypted_content, content: '' }];
  });
  const latestIndex = lastCompaction(items);
  const latest = carried.length > 0 ? readSeal((carried.at(-1) as CarriedCompaction).token) : null;
  const partial: ContextWindow = {
    mode: threshold === undefined ? 'none' : 'threshold',
    threshold: threshold ?? null,
    pause: false,
    beta: null,
    carried,
    latest,
    inputTokens: 0,
    baseTokens: 0,
    prefixTokens: 0,
    cacheControl: false,
  };
  const rendered = new Set(renderedItems(items, partial));
  const summary = latestIndex >= 0 ? SUMMARY_TOKENS : 0;
  const itemsBytes = items.reduce((sum, item) => sum + jsonBytes(item), 0);
  const unrendered = items.reduce((sum, item) => sum + (rendered.has(item) ? 0 : jsonBytes(item)), 0);
  const inputTokens = tokensOfBytes(bytes - unrendered) + summary;
  // The tail: the last run of the model's items (a compaction item among them), and what follows.
  let tail = items.length;
  while (tail > 0 && !isOutput(items[tail - 1] as Item)) tail--;
  while (tail > 0 && isOutput(items[tail - 1] as Item)) tail--;
  const tailItems = items.slice(tail).filter((item) => rendered.has(item));
  const tailTokens = tokensOfBytes(tailItems.reduce((sum, item) => sum + jsonBytes(item), 0)) + (latestIndex >= tail ? summary : 0);
  const hasOutput = items.some(isOutput);
  return {
    ...partial,
    inputTokens,
    baseTokens: tokensOfBytes(bytes - itemsBytes),
    prefixTokens: hasOutput ? Math.max(0, inputTokens - tailTokens) : 0,
  };
}

function isOutput(i: Item): boolean {
  return isModelOutput(i) || i.type === 'compaction';
}

function isMessage(i: Item): boolean {
  return (i.type === undefined || i.type === 'message') && typeof i.role === 'string';
}

/** The model's own items: its messages, reasoning, and calls of functions or built-in tools. */
function isModelOutput(i: Item): boolean {
  if (isMessage(i)) return i.role === 'assistant';
  return i.type === 'reasoning' || (typeof i.type === 'string' && i.type.endsWith('_call'));
}

/** One answer is a run of consecutive model items (a message and its function calls). */
function answerGroups(items: readonly Item[]): number {
  let groups = 0;
  items.forEach((i, index) => {
    const previous = items[index - 1];
    if (isModelOutput(i) && !(previous && isModelOutput(previous))) groups++;
  });
  return groups;
}

function itemText(i: Item): string {
  if (isMessage(i)) return partsText(i.content, ANY_TEXT);
  if (i.type === 'function_call_output') return partsText(i.output, ANY_TEXT);
  return '';
}
