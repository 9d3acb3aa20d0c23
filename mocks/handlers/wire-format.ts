/**
 * One model API, several wire formats: each format reads its requests into one neutral
 * ModelRequest and renders one neutral Reply (the plan's answer, planned once) and the faults'
 * errors in its provider's own shape. Planning never depends on the format.
 */
import { z } from 'zod';
import type { Usage } from '../../src/contract/messages.ts';
import type { Answer, ErrorFault } from '../faults/fault-response.ts';
import type { AssistantMessage } from '../synthetic/plan-run.ts';
import { hash32 } from '../synthetic/random.ts';

export type WireFormatName = 'chat-completions' | 'responses' | 'messages';

export interface ModelRequest {
  model: string;
  stream: boolean;
  bytes: number;
  purpose: 'agent' | 'compaction';
  /** The run and turn the request names: longrun's metadata, or what a Responses id carries. */
  runId: string | null;
  turn: number | null;
  /** The first user message's text: where the run marker is, and what an anonymous run id hashes. */
  firstUserText: string;
  /** The model's answers so far in the conversation; without metadata the turn is one more. */
  answers: number;
  /** The user's messages so far (text, not tool results): which message of a conversation is being answered. */
  userMessages: number;
  /** What the compaction model compacts: the text of every message but the instructions. */
  digest: string;
  /** The most output tokens the client allows (Anthropic's `max_tokens`); null when it sets none. */
  maxTokens: number | null;
  /**
   * The JSON Schema the request asks the final answer's text to fit (structured output: Chat
   * Completions' `response_format`, Responses' `text.format` of type `json_schema`); absent when free text.
   */
  outputSchema?: Record<string, unknown>;
  /** The function tools the request offers, in its order: a model calls no other. */
  tools: readonly OfferedTool[];
}

/** A function tool a request offers: its name and its arguments' JSON Schema (null when it declares none). */
export interface OfferedTool {
  name: string;
  parameters: Record<string, unknown> | null;
  /** A provider's own tool (Anthropic's bash, text editor...): its arguments are the provider's to define. */
  providerDefined?: true;
}

/** What the mock model answers, in no format yet. */
export interface Reply {
  model: string;
  /** The plan's message (or the card), in the contract's shape. */
  message: AssistantMessage;
  usage: Usage;
  /** Makes the ids: the same run and turn get the same ids. */
  key: string;
  runId: string | null;
  turn: number | null;
  stream: boolean;
  /** The request's limit on output tokens: a longer answer is cut there. */
  maxTokens: number | null;
}

export interface WireFormat {
  name: WireFormatName;
  /** Under the model base URL (`…/v1`); more than one when clients differ in the base they are given. */
  paths: readonly string[];
  /** Parses and validates a body; throws one line naming the field. */
  read(text: string, compactionModels: readonly string[]): ModelRequest;
  render(reply: Reply): Answer;
  /** An error fault as this provider words it. */
  error(fault: ErrorFault, request: ModelRequest): Answer;
  /** Bad input: status 400, the message naming the field. */
  invalid(message: string): Answer;
  /** A body past the mock server's cap: status 413. */
  tooLarge(message: string): Answer;
  /** A streamed answer that starts, then fails with the fault's error event; absent where the format has none. */
  midStreamError?(fault: ErrorFault, reply: Reply): Answer;
}

/** Answers carry a fixed creation time: the same run gives the same bytes on any day. */
export const CREATED = Math.floor(Date.UTC(2026, 10, 8) / 1000);

/** A 16-hex-digit id part, the same for the same parts (a reply's key, a call's id). */
export function idOf(...parts: readonly string[]): string {
  const hex = (value: number) => value.toString(16).padStart(8, '0');
  return `${hex(hash32(...parts))}${hex(hash32(...parts, 'id'))}`;
}

/** longrun's request metadata; any format may carry it (unknown keys are left alone). */
export const metadataSchema = z
  .looseObject({
    longrun_run_id: z.string().min(1).optional(),
    longrun_turn: z.union([z.string(), z.number()]).optional(),
    longrun_purpose: z.enum(['agent', 'compaction']).optional(),
  })
  .optional();

type Metadata = z.infer<typeof metadataSchema>;

/** A tool's name as OpenAI and Anthropic take it. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A function tool's name and arguments' schema, checked as its provider checks them (a name of
 * 1 to 64 letters, digits, `_` or `-`; a JSON Schema of type object); throws one line naming
 * the field, as the provider's 400 does.
 */
export function offeredTool(
  path: string,
  tool: { name?: unknown } & Record<string, unknown>,
  argumentsKey: string,
  argumentsRequired: boolean,
): OfferedTool {
  const { name } = tool;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new Error(`${path}.name: a tool's name is 1 to 64 letters, digits, _ or -, got ${JSON.stringify(name) ?? 'nothing'}`);
  }
  const schema = tool[argumentsKey];
  const given = schema !== undefined && schema !== null;
  if ((given || argumentsRequired) && (typeof schema !== 'object' || (schema as { type?: unknown }).type !== 'object')) {
    throw new Error(`${path}.${argumentsKey}: the arguments of ${name} must be a JSON Schema of type object`);
  }
  if (given) {
    const problem = schemaTypeProblem(schema, `${path}.${argumentsKey}`);
    if (problem) throw new Error(`${problem} (in the arguments of ${name})`);
  }
  return { name, parameters: given ? (schema as Record<string, unknown>) : null };
}

const SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/** The first `type` in a schema (its properties and items, at any depth) that JSON Schema does not know. */
function schemaTypeProblem(schema: unknown, path: string): string | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const { type, properties, items } = schema as { type?: unknown; properties?: unknown; items?: unknown };
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  const unknown = types.find((t) => typeof t !== 'string' || !SCHEMA_TYPES.includes(t));
  if (unknown !== undefined) return `${path}.type: ${JSON.stringify(unknown)} is not a JSON Schema type (${SCHEMA_TYPES.join(', ')})`;
  const children = Object.entries(typeof properties === 'object' && properties !== null ? properties : {});
  for (const [key, child] of children) {
    const problem = schemaTypeProblem(child, `${path}.properties.${key}`);
    if (problem) return problem;
  }
  return schemaTypeProblem(items, `${path}.items`);
}

/** Purpose, run and turn from the metadata; the purpose falls back to the model's name. */
export function fromMetadata(
  metadata: Metadata,
  model: string,
  compactionModels: readonly string[],
): Pick<ModelRequest, 'purpose' | 'runId' | 'turn'> {
  return {
    purpose: metadata?.longrun_purpose ?? (compactionModels.includes(model) ? 'compaction' : 'agent'),
    runId: metadata?.longrun_run_id ?? null,
    turn: metadata?.longrun_turn === undefined ? null : parseTurn(metadata.longrun_turn),
  };
}

function parseTurn(value: string | number): number {
  const turn = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(turn) || turn < 1) {
    throw new Error(`body.metadata.longrun_turn: must be an integer >= 1 (turns are 1-based), got ${JSON.stringify(value)}`);
  }
  return turn;
}

/** The text of a content that is a string or a list of parts; parts of other types are left out. */
export function partsText(content: unknown, textTypes: readonly string[]): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => textTypes.includes(part?.type) && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n');
}

/** A server-sent event; `name` is the `event:` line the Responses and Messages streams carry. */
export function sseEvent(data: unknown, name?: string): string {
  return `${name === undefined ? '' : `event: ${name}\n`}data: ${JSON.stringify(data)}\n\n`;
}

const PIECE = 32;

/** Deltas of about PIECE units that never split a surrogate pair (a client may decode each delta on its own). */
export function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + PIECE);
    if (isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end++;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** A JSON answer. */
export function jsonAnswer(status: number, body: unknown): Answer {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}

/** A stream of events. */
export function streamAnswer(events: string[]): Answer {
  return { status: 200, contentType: 'text/event-stream', body: events.join(''), events };
}
