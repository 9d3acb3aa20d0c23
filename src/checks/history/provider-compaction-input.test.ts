/**
 * A call_model input of the provider-compaction binary: `context_management` on the request and,
 * once the provider compacted, a compaction item among the messages. Both readings (from the
 * payload's bytes, and decoded whole) take it as a message of its own, its bytes counted.
 */
import { describe, expect, it } from 'vitest';
import type { CallModelInput } from '../../contract/kernel-api.ts';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { jsonTextPayloads as payloads } from '../testing/payload-bytes.ts';
import { decodePayloads } from './payloads.ts';
import { ContractReader } from './summarize.ts';

const compaction = { role: 'compaction', id: 'cmp_1', content: `lrc1.${'x'.repeat(300)}.mac` } as const;
const input: CallModelInput = {
  runId: 'r',
  turn: 14,
  request: {
    model: 'longrun-agent',
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      compaction,
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ],
    metadata: { longrun_run_id: 'r', longrun_turn: '14', longrun_purpose: 'agent' },
    context_management: [{ type: 'compaction', compact_threshold: 55_555 }],
  },
};

describe('a call_model input that carries a compaction item', () => {
  it('is read from its bytes as decoded whole: the item a message of its own, every byte of the request counted', () => {
    const json = JSON.stringify(input);
    const whole = new ContractReader(DEFAULT_KERNEL_MAPPING).activityInput(
      'call-model',
      decodePayloads({ payloads: payloads(json, false) }),
    );
    const fast = new ContractReader(DEFAULT_KERNEL_MAPPING).callModelInput(payloads(json, true));
    expect(fast).toEqual(whole);
    if (whole.kind !== 'call-model') throw new Error(`read as ${whole.kind}`);
    expect(whole.request.bytes).toBe(Buffer.byteLength(JSON.stringify(input.request)));
    expect(whole.request.messages.map((m) => m.role)).toEqual(['system', 'compaction', 'assistant', 'tool']);
    expect(whole.request.messages[1]?.bytes).toBe(Buffer.byteLength(JSON.stringify(compaction)));
  });
});
