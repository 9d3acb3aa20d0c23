/**
 * A call_model input read from its bytes (messages the previous request sent taken unparsed)
 * must be what decoding the whole payload gives, request after request, whatever the JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { jsonTextPayloads as payloads, readOrReason } from '../testing/payload-bytes.ts';
import { decodePayloads } from './payloads.ts';
import { ContractReader } from './summarize.ts';

const text = fc.string({ unit: fc.constantFrom('a', 'é', '"', '\\', '\n', ' ', '{', ']', '😀', 'x'), maxLength: 60 });
const message = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'assistant', 'tool'), content: text }),
  fc.record({
    role: fc.constant('tool'),
    tool_call_id: fc.constantFrom('c1', 'c2'),
    content: fc.array(fc.record({ type: fc.constant('text'), text })),
  }),
  fc.record({ content: text }),
);

describe('a call_model input read from its bytes', () => {
  it('equals the decoded payload read whole, request after request', () => {
    const dialog = fc.array(message, { minLength: 0, maxLength: 6 });
    // Each step: messages appended, or the dialog restarted (compaction); a turn number; JSON spacing.
    const step = fc.record({
      restart: fc.boolean(),
      add: dialog,
      turn: fc.integer({ min: 1, max: 120 }),
      spaced: fc.boolean(),
      late: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 6 }), fc.boolean(), (steps, asFile) => {
        const fast = new ContractReader(DEFAULT_KERNEL_MAPPING);
        const whole = new ContractReader(DEFAULT_KERNEL_MAPPING);
        let messages: unknown[] = [];
        for (const { restart, add, turn, spaced, late } of steps) {
          messages = restart ? add : [...messages, ...add];
          const request = late ? { model: 'm', metadata: { turn }, messages } : { model: 'm', messages, metadata: { turn } };
          const json = JSON.stringify({ runId: 'r', turn, request }, null, spaced ? 1 : undefined);
          const expected = readOrReason(() => whole.activityInput('call-model', decodePayloads({ payloads: payloads(json, false) })));
          const read = fast.callModelInput(payloads(json, asFile));
          // An input the whole read refuses is left to it (it names the reason).
          if (typeof expected === 'string') expect(read).toBeUndefined();
          else expect(read).toEqual(expected);
        }
      }),
      { numRuns: 300, seed: 2026 },
    );
  });

  it('leaves a payload whose key repeats, or that is not JSON, to the whole read', () => {
    const reader = new ContractReader(DEFAULT_KERNEL_MAPPING);
    expect(reader.callModelInput(payloads('{"request":{"messages":[],"messages":[{"role":"user","content":"x"}]}}', true))).toBeUndefined();
    expect(reader.callModelInput(payloads('{"request":{"messages":[{"role":"user","content":"x"}]', true))).toBeUndefined();
    expect(reader.callModelInput(payloads('{"request":{"messages":[{"content":"x"}]}}', true))).toBeUndefined();
  });

  it('leaves an Anthropic Messages request to the whole read, which reads it in the neutral form', () => {
    const anthropic = (request: object) => JSON.stringify({ runId: 'r', turn: 2, request });
    const system = anthropic({ model: 'claude', system: 'Be careful.', messages: [{ role: 'user', content: 'go' }] });
    const blocks = anthropic({
      model: 'claude',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shell', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
      ],
    });
    for (const json of [system, blocks]) {
      expect(new ContractReader(DEFAULT_KERNEL_MAPPING).callModelInput(payloads(json, true))).toBeUndefined();
      const whole = new ContractReader(DEFAULT_KERNEL_MAPPING).activityInput(
        'call-model',
        decodePayloads({ payloads: payloads(json, false) }),
      );
      expect(whole).toMatchObject({ request: { format: 'anthropic-messages' } });
    }
  });
});
