/** Reading a Chat Completions request as the mocks need it: who asks, for which run and turn. */
import { z } from 'zod';
import type { ChatRequest, Message } from '../../src/contract/messages.ts';
import { parseBody } from './json-body.ts';
import { fromMetadata, type ModelRequest, metadataSchema, offeredTool, partsText } from './wire-format.ts';

const content = z.union([z.string(), z.array(z.looseObject({ type: z.string() })), z.null()]);
/** As OpenAI checks them: an integer from 1, or null. */
const outputTokens = z.number().int().positive().nullable().optional();
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
  max_tokens: outputTokens,
  max_completion_tokens: outputTokens,
  metadata: metadataSchema,
  tools: z.array(z.looseObject({ type: z.literal('function'), function: z.looseObject({}) })).optional(),
  response_format: z
    .looseObject({ type: z.string(), json_schema: z.looseObject({ schema: z.record(z.string(), z.unknown()).optional() }).optional() })
    .nullable()
    .optional(),
});

/** Parses and validates a request body; throws one line naming the field. */
export function readChatRequest(text: string, compactionModels: readonly string[]): ModelRequest {
  const parsed = parseBody(text, schema);
  const messages = parsed.messages as unknown as ChatRequest['messages'];
  const first = messages.find((m) => m.role === 'user');
  // The first system message holds the compaction instructions, not the digest.
  const digested = messages.length > 1 && messages[0]?.role === 'system' ? messages.slice(1) : messages;
  const format = parsed.response_format;
  if (format?.type === 'json_schema' && !format.json_schema?.schema) {
    throw new Error('body.response_format.json_schema.schema: a json_schema format needs its schema');
  }
  return {
    model: parsed.model,
    stream: parsed.stream === true,
    bytes: Buffer.byteLength(text),
    ...fromMetadata(parsed.metadata, parsed.model, compactionModels),
    firstUserText: first ? textOf(first) : '',
    answers: messages.filter((m) => m.role === 'assistant').length,
    userMessages: messages.filter((m) => m.role === 'user').length,
    digest: digested.map(textOf).join('\n'),
    maxTokens: null,
    tools: (parsed.tools ?? []).map((tool, i) => offeredTool(`body.tools.${i}.function`, tool.function, 'parameters', false)),
    ...(format?.type === 'json_schema' && format.json_schema?.schema ? { outputSchema: format.json_schema.schema } : {}),
  };
}

/** The text of a message: its string content or its text parts; images are left out. */
export function textOf(message: Message): string {
  return partsText((message as { content?: unknown }).content, ['text']);
}
