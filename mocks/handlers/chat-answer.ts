/** A chat completion as JSON or as server-sent events, with usage derived from the bytes. */
import { BYTES_PER_TOKEN } from '../../src/contract/limits.ts';
import type { ChatResponse, Usage } from '../../src/contract/messages.ts';
import type { Answer } from '../faults/fault-response.ts';
import type { AssistantMessage } from '../synthetic/plan-run.ts';
import { hash32 } from '../synthetic/random.ts';

/** Answers carry a fixed creation time: the same run gives the same bytes on any day. */
const CREATED = Math.floor(Date.UTC(2026, 10, 8) / 1000);
const PIECE = 32;

export function usageFor(requestBytes: number, message: AssistantMessage): Usage {
  const prompt = Math.round(requestBytes / BYTES_PER_TOKEN);
  const completion = Math.round(Buffer.byteLength(JSON.stringify(message)) / BYTES_PER_TOKEN);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}

export interface CompletionInput {
  model: string;
  message: AssistantMessage;
  requestBytes: number;
  /** Makes the completion id: the same run and turn get the same id. */
  key: string;
  stream: boolean;
}

export function completionAnswer(input: CompletionInput): Answer {
  const { model, message, requestBytes, key } = input;
  const id = `chatcmpl-${hash32(key).toString(16).padStart(8, '0')}${hash32(key, 'id').toString(16).padStart(8, '0')}`;
  const finish = message.tool_calls?.length ? 'tool_calls' : 'stop';
  const usage = usageFor(requestBytes, message);
  if (!input.stream) {
    const body: ChatResponse = {
      id,
      object: 'chat.completion',
      created: CREATED,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    };
    return {
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(body),
    };
  }
  const chunk = (delta: unknown, finishReason: string | null = null) =>
    event({
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
    event({
      id,
      object: 'chat.completion.chunk',
      created: CREATED,
      model,
      choices: [],
      usage,
    }),
  );
  events.push('data: [DONE]\n\n');
  return {
    status: 200,
    contentType: 'text/event-stream',
    body: events.join(''),
    events,
  };
}

function event(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

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
