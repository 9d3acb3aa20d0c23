/**
 * OpenAI's standalone compaction, `POST /v1/responses/compact`: it takes a conversation's input
 * and answers the compacted window (a `response.compaction` object): the user's messages, then
 * one compaction item that stands for the rest, with the usage of the compaction pass.
 */
import { z } from 'zod';
import type { Answer } from '../faults/fault-response.ts';
import { parseBody } from './json-body.ts';
import { type ContextWindow, decideCompaction } from './provider-compaction.ts';
import { compactionItem, responsesUsage } from './responses-answer.ts';
import { conversationCounts, inputItems, isUserText, renderedItems, responsesWindow, userText } from './responses-request.ts';
import { CREATED, jsonAnswer } from './wire-format.ts';

const schema = z.looseObject({
  model: z.string().min(1).nullable(),
  input: z
    .union([z.string(), z.array(z.looseObject({ type: z.string().optional(), role: z.string().optional() }))])
    .nullable()
    .optional(),
  previous_response_id: z.string().nullable().optional(),
});

export interface CompactRequest {
  model: string;
  bytes: number;
  window: ContextWindow;
  /** The user's messages the compacted window keeps, as output items. */
  kept: Record<string, unknown>[];
  /** Where the run marker is. */
  firstUserText: string;
  answers: number;
  userMessages: number;
}

export function readCompactRequest(text: string): CompactRequest {
  const parsed = parseBody(text, schema);
  if (parsed.input === undefined || parsed.input === null) {
    // The mock keeps no conversation, so it cannot compact one it is only pointed at.
    throw new Error(
      parsed.previous_response_id
        ? 'body.previous_response_id: this mock keeps no stored responses to compact; send the conversation as input'
        : 'body.input: nothing to compact',
    );
  }
  const items = inputItems(parsed.input);
  const window = responsesWindow(items, Buffer.byteLength(text), undefined);
  return {
    model: parsed.model ?? 'default',
    bytes: Buffer.byteLength(text),
    window,
    kept: renderedItems(items, window)
      .filter(isUserText)
      .map((i) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text: userText(i) }] })),
    firstUserText: userText(items.find(isUserText) ?? {}),
    ...conversationCounts(items, window),
  };
}

/** The compacted window of a conversation of the run, and the usage of its compaction pass. */
export function compactedAnswer(request: CompactRequest, context: { runId: string; seed: number }): Answer {
  const outcome = decideCompaction(
    { ...request.window, mode: 'param' },
    {
      format: 'responses',
      origin: 'responses-compact',
      runId: context.runId,
      turn: request.answers + 1,
      seed: context.seed,
      answers: request.answers,
      // The window keeps the user's messages: only those an earlier compaction replaced stay replaced.
      users: request.window.latest?.users ?? 0,
      summary: () => '',
    },
  );
  const compaction = outcome.compaction as NonNullable<typeof outcome.compaction>;
  // The pass reads the input and writes the summary; no answer follows it.
  const usage = responsesUsage(
    { prompt_tokens: outcome.inputTokens, completion_tokens: 0, total_tokens: outcome.inputTokens },
    {
      ...outcome,
      compactedTokens: 0,
    },
  );
  return jsonAnswer(200, {
    id: `resp_${compaction.id.slice('cmp_'.length)}`,
    created_at: CREATED,
    object: 'response.compaction',
    output: [...request.kept, compactionItem(compaction)],
    usage,
  });
}
