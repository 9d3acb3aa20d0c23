/** A chat completion as JSON or as server-sent events, with usage derived from the bytes. */
import { BYTES_PER_TOKEN } from '../../src/contract/limits.ts';
import type { ChatResponse, Usage } from '../../src/contract/messages.ts';
import type { Answer } from '../faults/fault-response.ts';
import type { AssistantMessage } from '../synthetic/plan-run.ts';
import { CREATED, idOf, jsonAnswer, pieces, type Reply, sseEvent, streamAnswer } from './wire-format.ts';

export function usageFor(requestBytes: number, message: AssistantMessage): Usage {
  const prompt = Math.round(requestBytes / BYTES_PER_TOKEN);
  const completion = Math.round(Buffer.byteLength(JSON.stringify(message)) / BYTES_PER_TOKEN);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}

export function completionAnswer(reply: Reply): Answer {
  const { model, message, usage } = reply;
  const id = `chatcmpl-${idOf(reply.key)}`;
  const finish = message.tool_calls?.length ? 'tool_calls' : 'stop';
  if (!reply.stream) {
    const body: ChatResponse = {
      id,
      object: 'chat.completion',
      created: CREATED,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    };
    return jsonAnswer(200, body);
  }
  const chunk = (delta: unknown, finishReason: string | null = null) =>
    sseEvent({
      id,
      object: 'chat.completion.chunk',
      created: CREATED,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
  const events = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(message.content ?? '')) events.push(chunk({ content: piece }));
  message.tool_calls?.forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: '' },
          },
        ],
      }),
    );
    for (const piece of pieces(call.function.arguments)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(chunk({}, finish));
  events.push(
    sseEvent({
      id,
      object: 'chat.completion.chunk',
      created: CREATED,
      model,
      choices: [],
      usage,
    }),
  );
  events.push('data: [DONE]\n\n');
  return streamAnswer(events);
}
