/**
 * Reading an OpenAI Responses request (POST /v1/responses): `input` is a string or a list of
 * items (messages, the model's function calls, their outputs), `instructions` stand apart.
 * A response's id carries its run and turn, so a request that continues one through
 * `previous_response_id` (its input holding only the new items) is placed without state.
 */
import { z } from 'zod';
import { parseBody } from './json-body.ts';
import { fromMetadata, type ModelRequest, metadataSchema, offeredTool, partsText } from './wire-format.ts';

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
});

type Item = z.infer<typeof item> & Record<string, unknown>;

const USER_TEXT = ['input_text', 'text'];
const ANY_TEXT = ['input_text', 'output_text', 'text'];
const PREFIX = 'resp_';

export function readResponsesRequest(text: string, compactionModels: readonly string[]): ModelRequest {
  const parsed = parseBody(text, schema);
  const items: Item[] = typeof parsed.input === 'string' ? [{ type: 'message', role: 'user', content: parsed.input }] : parsed.input;
  const request: ModelRequest = {
    model: parsed.model,
    stream: parsed.stream === true,
    bytes: Buffer.byteLength(text),
    ...fromMetadata(parsed.metadata, parsed.model, compactionModels),
    firstUserText: partsText(items.find((i) => isMessage(i) && i.role === 'user')?.content, USER_TEXT),
    answers: answerGroups(items),
    userMessages: items.filter((i) => isMessage(i) && i.role === 'user' && partsText(i.content, USER_TEXT) !== '').length,
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
