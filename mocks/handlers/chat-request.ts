/** Reading a chat completion request as the mocks need it: who asks, for which run and turn. */
import { z } from 'zod';
import type { ChatRequest, Message } from '../../src/contract/messages.ts';
import { hash32 } from '../synthetic/random.ts';
import { describeIssue } from '../synthetic/run-shape.ts';

const content = z.union([z.string(), z.array(z.looseObject({ type: z.string() })), z.null()]);
const schema = z.looseObject({
  model: z.string().min(1),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(['system', 'user', 'assistant', 'tool']),
        content: content.optional(),
      }),
    )
    .min(1),
  stream: z.boolean().optional(),
  metadata: z
    .looseObject({
      longrun_run_id: z.string().min(1).optional(),
      longrun_turn: z.union([z.string(), z.number()]).optional(),
      longrun_purpose: z.enum(['agent', 'compaction']).optional(),
    })
    .optional(),
});

export interface ModelRequest {
  body: ChatRequest;
  bytes: number;
  purpose: 'agent' | 'compaction';
  runId: string | null;
  turn: number | null;
}

/** Parses and validates a request body; throws one line naming the field. */
export function readModelRequest(text: string, compactionModels: readonly string[]): ModelRequest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('body: not valid JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(describeIssue('body', parsed.error.issues[0]));
  const body = parsed.data as unknown as ChatRequest;
  const metadata = parsed.data.metadata;
  const purpose = metadata?.longrun_purpose ?? (compactionModels.includes(body.model) ? 'compaction' : 'agent');
  return {
    body,
    bytes: Buffer.byteLength(text),
    purpose,
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

/** Without metadata: the turn is one more than the assistant messages so far. */
export function turnFromMessages(messages: readonly Message[]): number {
  return 1 + messages.filter((m) => m.role === 'assistant').length;
}

/** Without metadata: a stable run id from the user's first message, so that each conversation gets its own plan. */
export function runIdFromMessages(messages: readonly Message[]): string {
  const first = messages.find((m) => m.role === 'user');
  return `anonymous-${hash32(first ? textOf(first) : '').toString(16)}`;
}

/** The text of a message: its string content or its text parts; images are left out. */
export function textOf(message: Message): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}
