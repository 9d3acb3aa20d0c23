/**
 * What the kernel accepts from the model and the sandbox. Unknown fields are dropped, so a
 * real provider's extras (refusal, annotations, logprobs) never reach the workflow's history.
 */
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { FAILURE_TYPE } from '../../contract/failure-types.ts';
import type { CallModelResult } from '../../contract/kernel-api.ts';
import type { ToolResult } from '../../contract/messages.ts';

const toolCall = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const contentPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('image_url'),
    image_url: z.object({ url: z.string() }),
  }),
]);

const chatResponse = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          role: z.literal('assistant'),
          content: z.string().nullish(),
          tool_calls: z.array(toolCall).nullish(),
        }),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number(),
      completion_tokens: z.number(),
      total_tokens: z.number(),
    })
    .nullish(),
});

const toolResult = z.object({
  tool_call_id: z.string(),
  content: z.union([z.string(), z.array(contentPart)]),
});

export function parseChatResponse(body: unknown, peer: string): CallModelResult {
  const response = parse(chatResponse, body, peer);
  const message = response.choices[0]?.message;
  if (message === undefined) throw malformed(peer, 'no choices');
  const toolCalls = message.tool_calls ?? [];
  return {
    message: {
      role: 'assistant',
      content: message.content ?? null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
    usage: response.usage ?? {
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
    },
  };
}

export function parseToolResult(body: unknown, peer: string): ToolResult {
  return parse(toolResult, body, peer);
}

function parse<T>(schema: z.ZodType<T>, body: unknown, peer: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw malformed(peer, issue ? `${issue.path.join('.') || '(body)'}: ${issue.message}` : 'unreadable');
}

function malformed(peer: string, detail: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: FAILURE_TYPE.malformedResponse,
    message: `${peer} answered an unexpected body: ${detail}`,
  });
}
