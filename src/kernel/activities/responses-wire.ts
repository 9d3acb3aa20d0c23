/**
 * `call_model` over the OpenAI Responses API, for a kernel that lets the provider compact its
 * conversation: the kernel's messages become input items (the first system message the
 * instructions, an assistant message and its tool calls a message item and function_call items,
 * a tool result a function_call_output, a compaction the item it came as), and the answer's
 * output items become the kernel's assistant message, with the compaction item when the
 * provider compacted. Unknown fields and items (reasoning, a provider's extras) are dropped.
 */
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { FAILURE_TYPE } from '../../contract/failure-types.ts';
import type { CallModelResult } from '../../contract/kernel-api.ts';
import type { ChatRequest, CompactionItem, ContentPart, Message, ToolCall } from '../../contract/messages.ts';
import type { ResponsesInputItem, ResponsesInputPart, ResponsesRequest } from '../../contract/responses.ts';

/** The request as the Responses API takes it. */
export function toResponsesRequest(request: ChatRequest): ResponsesRequest {
  const first = request.messages[0];
  const instructions = first?.role === 'system' ? first.content : undefined;
  const rest = instructions === undefined ? request.messages : request.messages.slice(1);
  return {
    model: request.model,
    ...(instructions === undefined ? {} : { instructions }),
    input: rest.flatMap(inputItems),
    ...(request.tools
      ? {
          tools: request.tools.map(({ function: f }) => ({
            type: 'function' as const,
            name: f.name,
            description: f.description,
            parameters: f.parameters,
            strict: false as const,
          })),
        }
      : {}),
    ...(request.metadata ? { metadata: { ...request.metadata } } : {}),
    ...(request.context_management ? { context_management: request.context_management } : {}),
    store: false,
  };
}

function inputItems(message: Message): ResponsesInputItem[] {
  switch (message.role) {
    case 'system':
      return [{ type: 'message', role: 'system', content: message.content }];
    case 'user':
      return [{ type: 'message', role: 'user', content: inputContent(message.content) }];
    case 'assistant': {
      const text: ResponsesInputItem[] =
        message.content === null || message.content === '' ? [] : [{ type: 'message', role: 'assistant', content: message.content }];
      const calls = (message.tool_calls ?? []).map(
        (call): ResponsesInputItem => ({
          type: 'function_call',
          call_id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        }),
      );
      return [...text, ...calls];
    }
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.tool_call_id, output: inputContent(message.content) }];
    case 'compaction':
      return [{ type: 'compaction', id: message.id, encrypted_content: message.content }];
  }
}

function inputContent(content: string | ContentPart[]): string | ResponsesInputPart[] {
  if (typeof content === 'string') return content;
  return content.map((part) =>
    part.type === 'text' ? { type: 'input_text', text: part.text } : { type: 'input_image', image_url: part.image_url.url, detail: 'auto' },
  );
}

const outputItem = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message'),
    content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  }),
  z.object({ type: z.literal('function_call'), call_id: z.string(), name: z.string(), arguments: z.string() }),
  z.object({ type: z.literal('compaction'), id: z.string(), encrypted_content: z.string().min(1) }),
]);

const response = z.object({
  status: z.string().nullish(),
  output: z.array(z.looseObject({ type: z.string() })),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number(), total_tokens: z.number() }).nullish(),
});

/** The answer as the kernel keeps it: one assistant message, the usage, and the compaction the provider made, if it made one. */
export function fromResponsesAnswer(body: unknown, peer: string): CallModelResult {
  const parsed = response.safeParse(body);
  if (!parsed.success) throw malformed(peer, parsed.error.issues[0]);
  const texts: string[] = [];
  const calls: ToolCall[] = [];
  let compaction: CompactionItem | undefined;
  for (const [index, raw] of parsed.data.output.entries()) {
    if (!['message', 'function_call', 'compaction'].includes(raw.type)) continue;
    const item = outputItem.safeParse(raw);
    if (!item.success) throw malformed(peer, item.error.issues[0], `output.${index}`);
    const value = item.data;
    if (value.type === 'message') texts.push(...value.content.flatMap((part) => (part.type === 'output_text' ? [part.text ?? ''] : [])));
    else if (value.type === 'function_call') {
      calls.push({ id: value.call_id, type: 'function', function: { name: value.name, arguments: value.arguments } });
    } else compaction = { role: 'compaction', id: value.id, content: value.encrypted_content };
  }
  const usage = parsed.data.usage;
  return {
    message: {
      role: 'assistant',
      content: texts.length > 0 ? texts.join('') : null,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    },
    usage: usage
      ? { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: usage.total_tokens }
      : { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    ...(compaction ? { compaction } : {}),
  };
}

function malformed(peer: string, issue: z.core.$ZodIssue | undefined, at = ''): ApplicationFailure {
  const path = [at, ...(issue?.path ?? []).map(String)].filter((p) => p !== '').join('.');
  return ApplicationFailure.create({
    type: FAILURE_TYPE.malformedResponse,
    message: `${peer} answered an unexpected body: ${issue ? `${path || '(body)'}: ${issue.message}` : 'unreadable'}`,
  });
}
