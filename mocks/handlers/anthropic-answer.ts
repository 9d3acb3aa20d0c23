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
import type { ProviderOutcome, ProviderReply } from './provider-compaction.ts';
import { idOf, jsonAnswer, type ModelRequest, pieces, type Reply, sseEvent, streamAnswer } from './wire-format.ts';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'compaction'; content: string; encrypted_content: string | null; signature?: string };

/** Usage as the API counts it: input_tokens leave out what the cache read and wrote. */
function tokensOf(input: number, read: number, write: number) {
  return { input_tokens: input - read - write, cache_creation_input_tokens: write, cache_read_input_tokens: read };
}

/**
 * The usage of an answer past a compaction: the compaction's entry in `iterations` (the input it
 * read, the summary it wrote), then the answer's (the compacted window it read); the top-level
 * fields are the answer's, or the compaction's when nothing was sampled after it.
 */
function compactedUsage(provider: ProviderOutcome, outputTokens: number, model: string) {
  const pass = provider.pass as NonNullable<ProviderOutcome['pass']>;
  const read = tokensOf(pass.inputTokens, pass.cacheReadTokens, provider.cacheWriteTokens);
  const compaction = { type: 'compaction', ...read, cache_creation: null, output_tokens: pass.outputTokens };
  if (provider.only) return { top: { ...read, output_tokens: pass.outputTokens }, iterations: [compaction] };
  const answered = tokensOf(provider.compactedTokens, 0, 0);
  const answer = { type: 'message', ...answered, cache_creation: null, output_tokens: outputTokens, model };
  return { top: { ...answered, output_tokens: outputTokens }, iterations: [compaction, answer] };
}

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

export function anthropicAnswer(reply: ProviderReply): Answer {
  const { message, provider } = reply;
  const compaction = provider?.compaction ?? null;
  const only = compaction !== null && provider?.only === true;
  // Past max_tokens the API stops where it is: the text cut at that many tokens, no tool call finished.
  const cut = !only && reply.maxTokens !== null && reply.usage.completion_tokens > reply.maxTokens ? reply.maxTokens : null;
  const usage = cut === null ? reply.usage : { ...reply.usage, completion_tokens: cut };
  const text = only ? '' : cut === null ? (message.content ?? '') : headBytes(message.content ?? '', cut * BYTES_PER_TOKEN);
  const content: Block[] = [];
  if (compaction) {
    // Its token is the opaque metadata of the edit's block, the signature of the param's.
    content.push(
      compaction.signed
        ? { type: 'compaction', content: compaction.summary, encrypted_content: null, signature: compaction.token }
        : { type: 'compaction', content: compaction.summary, encrypted_content: compaction.token },
    );
  }
  if (text !== '') content.push({ type: 'text', text });
  for (const call of cut === null && !only ? (message.tool_calls ?? []) : []) {
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) });
  }
  const stopReason = only ? 'compaction' : cut !== null ? 'max_tokens' : message.tool_calls?.length ? 'tool_use' : 'end_turn';
  const base = { id: `msg_${idOf(reply.key)}`, type: 'message', role: 'assistant', model: reply.model };
  const outputTokens = only ? 0 : usage.completion_tokens;
  const compacted = compaction && provider ? compactedUsage(provider, outputTokens, reply.model) : null;
  const { output_tokens: _, ...tokens } = compacted
    ? compacted.top
    : provider
      ? { ...tokensOf(provider.inputTokens, provider.cacheReadTokens, provider.cacheWriteTokens), output_tokens: 0 }
      : { ...tokensOf(usage.prompt_tokens, 0, 0), output_tokens: 0 };
  const finalUsage = {
    ...tokens,
    output_tokens: compacted ? compacted.top.output_tokens : outputTokens,
    ...(compacted ? { iterations: compacted.iterations } : {}),
  };
  if (!reply.stream) {
    return jsonAnswer(200, {
      ...base,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: finalUsage,
    });
  }
  const events: string[] = [];
  const emit = (type: string, data: Record<string, unknown> = {}) => events.push(sseEvent({ type, ...data }, type));
  emit('message_start', {
    message: { ...base, content: [], stop_reason: null, stop_sequence: null, usage: { ...tokens, output_tokens: 1 } },
  });
  emit('ping');
  content.forEach((block, index) => {
    if (block.type === 'compaction') {
      // The delta carries the block's whole value (the SDK assigns it); a signature, which the
      // delta has no field for, comes with the start.
      emit('content_block_start', { index, content_block: { ...block, content: null, encrypted_content: null } });
      emit('content_block_delta', {
        index,
        delta: { type: 'compaction_delta', content: block.content, encrypted_content: block.encrypted_content },
      });
    } else if (block.type === 'text') {
      emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of pieces(block.text)) emit('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    } else {
      emit('content_block_start', { index, content_block: { ...block, input: {} } });
      const args = JSON.stringify(block.input);
      for (const piece of pieces(args)) emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    emit('content_block_stop', { index });
  });
  emit('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: finalUsage });
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
