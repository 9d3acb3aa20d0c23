/**
 * An Anthropic Messages answer: a `message` whose content is a text block and one tool_use
 * block per tool call, or the same as the named server-sent events the API streams
 * (message_start, content_block_start / _delta / _stop, message_delta, message_stop); an
 * answer longer than the request's `max_tokens` stopped there (`stop_reason: max_tokens`); and
 * the API's errors (`{ type: 'error', error: { type, message } }`, 529 when overloaded, the
 * `anthropic-ratelimit-*` headers on a 429, an `error` event in a stream that fails midway).
 */
import { BYTES_PER_TOKEN } from '../../src/contract/limits.ts';
import { retryAfterSecondsOf } from '../faults/fault-profile.ts';
import type { Answer, ErrorFault } from '../faults/fault-response.ts';
import { overflow } from './openai-errors.ts';
import { idOf, jsonAnswer, type ModelRequest, pieces, type Reply, sseEvent, streamAnswer } from './wire-format.ts';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

/** The first `bytes` UTF-8 bytes of a text, never splitting a character. */
function headBytes(text: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    used += Buffer.byteLength(char);
    if (used > bytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

export function anthropicAnswer(reply: Reply): Answer {
  const { message } = reply;
  // Past max_tokens the API stops where it is: the text cut at that many tokens, no tool call finished.
  const cut = reply.maxTokens !== null && reply.usage.completion_tokens > reply.maxTokens ? reply.maxTokens : null;
  const usage = cut === null ? reply.usage : { ...reply.usage, completion_tokens: cut };
  const text = cut === null ? (message.content ?? '') : headBytes(message.content ?? '', cut * BYTES_PER_TOKEN);
  const content: Block[] = text === '' ? [] : [{ type: 'text', text }];
  for (const call of cut === null ? (message.tool_calls ?? []) : []) {
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) });
  }
  const stopReason = cut !== null ? 'max_tokens' : message.tool_calls?.length ? 'tool_use' : 'end_turn';
  const base = { id: `msg_${idOf(reply.key)}`, type: 'message', role: 'assistant', model: reply.model };
  const tokens = { input_tokens: usage.prompt_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!reply.stream) {
    return jsonAnswer(200, {
      ...base,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { ...tokens, output_tokens: usage.completion_tokens },
    });
  }
  const events: string[] = [];
  const emit = (type: string, data: Record<string, unknown> = {}) => events.push(sseEvent({ type, ...data }, type));
  emit('message_start', {
    message: { ...base, content: [], stop_reason: null, stop_sequence: null, usage: { ...tokens, output_tokens: 1 } },
  });
  emit('ping');
  content.forEach((block, index) => {
    if (block.type === 'text') {
      emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of pieces(block.text)) emit('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    } else {
      emit('content_block_start', { index, content_block: { ...block, input: {} } });
      const args = JSON.stringify(block.input);
      for (const piece of pieces(args)) emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    emit('content_block_stop', { index });
  });
  emit('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.completion_tokens } });
  emit('message_stop');
  return streamAnswer(events);
}

export function anthropicError(status: number, type: string, message: string, headers?: Record<string, string>): Answer {
  return { ...jsonAnswer(status, { type: 'error', error: { type, message } }), ...(headers && { headers }) };
}

/** What the API says of an exhausted token limit: none left until the Retry-After has passed. */
function rateLimitHeaders(retryAfterSeconds: number): Record<string, string> {
  const reset = new Date(Math.ceil(Date.now() / 1000 + retryAfterSeconds) * 1000).toISOString().replace('.000Z', 'Z');
  return {
    'anthropic-ratelimit-requests-limit': '50',
    'anthropic-ratelimit-requests-remaining': '49',
    'anthropic-ratelimit-requests-reset': reset,
    'anthropic-ratelimit-tokens-limit': '80000',
    'anthropic-ratelimit-tokens-remaining': '0',
    'anthropic-ratelimit-tokens-reset': reset,
  };
}

/** A stream that starts as the answer would (message_start, its first block's first delta), then fails with an `error` event. */
export function anthropicMidStreamError(_fault: ErrorFault, reply: Reply): Answer {
  const events = anthropicAnswer({ ...reply, stream: true }).events ?? [];
  const firstDelta = events.findIndex((event) => event.startsWith('event: content_block_delta'));
  const error = sseEvent({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error');
  return streamAnswer([...events.slice(0, firstDelta < 0 ? 2 : firstDelta + 1), error]);
}

export function anthropicFault(fault: ErrorFault, request: ModelRequest): Answer {
  switch (fault.kind) {
    case 'http-429':
      return anthropicError(
        429,
        'rate_limit_error',
        'Number of request tokens has exceeded your per-minute rate limit',
        rateLimitHeaders(retryAfterSecondsOf(fault) ?? 1),
      );
    case 'http-500':
      return anthropicError(500, 'api_error', 'Internal server error');
    case 'http-503':
      return anthropicError(503, 'api_error', 'Service unavailable');
    case 'overloaded':
      return anthropicError(529, 'overloaded_error', 'Overloaded');
    case 'timeout':
      return anthropicError(504, 'timeout_error', 'Request timed out');
    case 'context-length-exceeded': {
      const { tokens, max } = overflow(fault, request);
      return anthropicError(400, 'invalid_request_error', `prompt is too long: ${tokens} tokens > ${max} maximum`);
    }
  }
}
