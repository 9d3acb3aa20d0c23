/**
 * Provider-side compaction (the provider-compaction binary): the threshold a request asks the
 * Responses API to compact past, and the conversation its compaction item leaves. Pure,
 * workflow-safe.
 */
import type { KernelLimits } from '../../contract/kernel-api.ts';
import { BYTES_PER_TOKEN } from '../../contract/limits.ts';
import type { CompactionItem, ContextManagement, Message } from '../../contract/messages.ts';
import { RESPONSES_MIN_COMPACT_THRESHOLD } from '../../contract/responses.ts';

/** The run's compaction trigger in tokens: the provider compacts where the kernel would have (never under the API's least). */
export function providerCompaction(limits: Pick<KernelLimits, 'compactionTriggerBytes'>): ContextManagement {
  const tokens = Math.floor(limits.compactionTriggerBytes / BYTES_PER_TOKEN);
  return { type: 'compaction', compact_threshold: Math.max(RESPONSES_MIN_COMPACT_THRESHOLD, tokens) };
}

/**
 * The conversation once the provider answered with a compaction item: the system prompt (the
 * request's instructions, which stand apart from the input) and the item, which stands for every
 * item before it; OpenAI documents that those may be dropped, so requests stop growing past the
 * threshold. The answer and its tool results follow it.
 */
export function afterProviderCompaction(messages: readonly Message[], compaction: CompactionItem): Message[] {
  const [system] = messages;
  return [...(system?.role === 'system' ? [system] : []), compaction];
}
