import { describe, expect, it } from 'vitest';
import type { CompactionItem, Message } from '../../contract/messages.ts';
import { afterProviderCompaction, providerCompaction } from './provider-compaction.ts';

const item: CompactionItem = { role: 'compaction', id: 'cmp_2', content: 'lrc1.b.c' };

describe('providerCompaction', () => {
  it("asks for compaction past the run's trigger in tokens, never under the API's least threshold", () => {
    expect(providerCompaction({ compactionTriggerBytes: 1_200_000 })).toEqual({ type: 'compaction', compact_threshold: 444_444 });
    expect(providerCompaction({ compactionTriggerBytes: 150_000 }).compact_threshold).toBe(55_555);
    expect(providerCompaction({ compactionTriggerBytes: 1_000 }).compact_threshold).toBe(1_000);
  });
});

describe('afterProviderCompaction', () => {
  it('keeps the system prompt and the item, and drops every message before it, an earlier compaction included', () => {
    const dialog: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'compaction', id: 'cmp_1', content: 'lrc1.a.b' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'out' },
    ];
    expect(afterProviderCompaction(dialog, item)).toEqual([{ role: 'system', content: 'sys' }, item]);
  });

  it('keeps only the item where the conversation has no system prompt', () => {
    expect(afterProviderCompaction([{ role: 'user', content: 'go' }], item)).toEqual([item]);
  });
});
