/**
 * A Responses API answer: a `response` object whose output holds a message item and one
 * function_call item per tool call, or the same as the typed server-sent events the API
 * streams (response.created ... response.output_text.delta ...
 * response.function_call_arguments.delta ... response.completed).
 */
import type { Usage } from '../../src/contract/messages.ts';
import type { Answer } from '../faults/fault-response.ts';
import type { ProviderOutcome, ProviderReply } from './provider-compaction.ts';
import { responseId } from './responses-request.ts';
import { CREATED, idOf, jsonAnswer, pieces, sseEvent, streamAnswer } from './wire-format.ts';

type OutputItem = Record<string, unknown> & { type: 'message' | 'function_call' | 'compaction'; id: string };

/**
 * The Responses API's usage. Past a compaction it carries both passes, as the API has no field
 * of its own for the compaction: the input it read and the compacted window the answer read,
 * the answer and the summary written.
 */
export function responsesUsage(usage: Usage, provider: ProviderOutcome | undefined) {
  const pass = provider?.pass;
  const input = (provider?.inputTokens ?? usage.prompt_tokens) + (pass ? provider.compactedTokens : 0);
  const output = usage.completion_tokens + (pass?.outputTokens ?? 0);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: provider?.cacheReadTokens ?? 0, cache_write_tokens: provider?.cacheWriteTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

/** A compaction output item: its id and opaque content. */
export function compactionItem(compaction: NonNullable<ProviderOutcome['compaction']>): OutputItem {
  return { type: 'compaction', id: compaction.id, encrypted_content: compaction.token };
}

export function responsesAnswer(reply: ProviderReply): Answer {
  const { message, usage } = reply;
  const id = reply.runId !== null && reply.turn !== null ? responseId(reply.runId, reply.turn) : `resp_${idOf(reply.key)}`;
  const text = message.content ?? '';
  const compaction = reply.provider?.compaction;
  // The compaction comes first: the server compacts, then answers from the compacted window.
  const output: OutputItem[] = compaction ? [compactionItem(compaction)] : [];
  if (text !== '') {
    output.push({
      type: 'message',
      id: `msg_${idOf(reply.key, 'message')}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    });
  }
  for (const call of message.tool_calls ?? []) {
    output.push({
      type: 'function_call',
      id: `fc_${idOf(reply.key, call.id)}`,
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: 'completed',
    });
  }
  const response = (status: 'in_progress' | 'completed', items: OutputItem[]) => ({
    id,
    object: 'response',
    created_at: CREATED,
    status,
    error: null,
    incomplete_details: null,
    model: reply.model,
    output: items,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: status === 'completed' ? responsesUsage(usage, reply.provider) : null,
  });
  if (!reply.stream) return jsonAnswer(200, response('completed', output));

  const events: string[] = [];
  const emit = (type: string, data: Record<string, unknown>) =>
    events.push(sseEvent({ type, sequence_number: events.length, ...data }, type));
  emit('response.created', { response: response('in_progress', []) });
  emit('response.in_progress', { response: response('in_progress', []) });
  output.forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === 'message') {
      const part = { type: 'output_text', text: '', annotations: [] };
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      emit('response.content_part.added', { item_id, output_index, content_index: 0, part });
      for (const delta of pieces(text))
        emit('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] });
      emit('response.output_text.done', { item_id, output_index, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', { item_id, output_index, content_index: 0, part: { ...part, text } });
    } else if (item.type === 'compaction') {
      emit('response.output_item.added', { output_index, item });
    } else {
      const args = item.arguments as string;
      emit('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      for (const delta of pieces(args)) emit('response.function_call_arguments.delta', { item_id, output_index, delta });
      emit('response.function_call_arguments.done', { item_id, output_index, arguments: args });
    }
    emit('response.output_item.done', { output_index, item });
  });
  emit('response.completed', { response: response('completed', output) });
  return streamAnswer(events);
}
