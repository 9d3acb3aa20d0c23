/**
 * A compact_context input read from its bytes (the messages the last request sent taken from it
 * unparsed) must be what decoding the whole payload gives, whatever the dialog and the JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { jsonTextPayloads as payloads, readOrReason } from '../testing/payload-bytes.ts';
import { decodePayloads } from './payloads.ts';
import { ContractReader } from './summarize.ts';

const text = fc.string({
  unit: fc.constantFrom('a', 'я', '漢', '😀', '"', '\\', '\n', ' ', '\uD800', 'OPS-4821 ', 'src/main.go '),
  maxLength: 40,
});
const message = fc.oneof(
  { arbitrary: fc.record({ role: fc.constantFrom('user', 'assistant'), content: text }), weight: 10 },
  { arbitrary: fc.record({ role: fc.constant('tool'), tool_call_id: fc.constantFrom('c1', 'c2'), content: text }), weight: 10 },
  {
    arbitrary: fc.record({
      role: fc.constant('tool'),
      tool_call_id: fc.constant('c3'),
      content: fc.array(fc.record({ type: fc.constant('text'), text }), { maxLength: 2 }),
    }),
    weight: 5,
  },
  // Left to the whole read: no role, Anthropic's content blocks.
  { arbitrary: fc.record({ content: text }), weight: 1 },
  { arbitrary: fc.constant({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shell', input: {} }] }), weight: 1 },
);

describe('a compact_context input read from its bytes', () => {
  it('equals the decoded payload read whole, after a request or not', () => {
    let readFromBytes = 0;
    const step = fc.record({
      request: fc.array(message, { maxLength: 5 }),
      added: fc.array(message, { maxLength: 12 }),
      dropFirst: fc.boolean(),
      spaced: fc.boolean(),
      requestFirst: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 4 }), fc.boolean(), (steps, asFile) => {
        const fast = new ContractReader(DEFAULT_KERNEL_MAPPING);
        const whole = new ContractReader(DEFAULT_KERNEL_MAPPING);
        steps.forEach(({ request, added, dropFirst, spaced, requestFirst }, turn) => {
          if (requestFirst) {
            const json = JSON.stringify({ runId: 'r', turn, request: { model: 'm', messages: request } });
            const read = fast.callModelInput(payloads(json, asFile));
            const expected = readOrReason(() => whole.activityInput('call-model', decodePayloads({ payloads: payloads(json, false) })));
            if (typeof expected === 'string') expect(read).toBeUndefined();
            else if (read) expect(read).toEqual(expected);
          }
          const messages = [...request, ...added].slice(dropFirst ? 1 : 0);
          const json = JSON.stringify(
            { runId: 'r', turn, messages, settings: { model: 't' }, cardMaxBytes: 8192 },
            null,
            spaced ? 1 : undefined,
          );
          const expected = readOrReason(() => whole.activityInput('compact-context', decodePayloads({ payloads: payloads(json, false) })));
          const read = fast.compactInput(payloads(json, asFile));
          if (typeof expected === 'string') expect(read).toBeUndefined();
          else if (read) {
            expect(read).toEqual(expected);
            readFromBytes++;
          }
        });
      }),
      { numRuns: 300, seed: 2026 },
    );
    expect(readFromBytes).toBeGreaterThan(300);
  });

  it('keeps the identifiers of the most recent tool messages, read from their bytes', () => {
    const tools = Array.from({ length: 10 }, (_, i) => ({
      role: 'tool',
      tool_call_id: `c${i}`,
      content: `built commit ${i}abcdef12 в src/m${i}.go 😀`,
    }));
    const json = JSON.stringify({ runId: 'r', turn: 3, messages: [{ role: 'user', content: 'go' }, ...tools] });
    const read = new ContractReader(DEFAULT_KERNEL_MAPPING).compactInput(payloads(json, true));
    expect(read).toEqual(
      new ContractReader(DEFAULT_KERNEL_MAPPING).activityInput('compact-context', decodePayloads({ payloads: payloads(json, false) })),
    );
    expect(read).toMatchObject({ recentToolIdentifiers: expect.arrayContaining([expect.arrayContaining(['src/m9.go'])]) });
  });

  it.each([
    ['messages that are not an array', '{"turn":1,"messages":{"a":1}}'],
    ['a repeated messages key', '{"turn":1,"messages":[],"messages":[{"role":"user","content":"x"}]}'],
    ['a message without a role', '{"turn":1,"messages":[{"content":"x"}]}'],
    ['JSON cut short', '{"turn":1,"messages":[{"role":"user","content":"x"}]'],
  ])('leaves %s to the whole read', (_, json) => {
    expect(new ContractReader(DEFAULT_KERNEL_MAPPING).compactInput(payloads(json, true))).toBeUndefined();
  });
});
