/**
 * A run_tool result read from its bytes (its content never serialized again) must be what decoding
 * the whole payload gives, and must let the next request find its message as the whole read does,
 * whatever the content holds and however the JSON is written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { jsonTextPayloads as payloads, readOrReason } from '../testing/payload-bytes.ts';
import { decodePayloads } from './payloads.ts';
import { ContractReader } from './summarize.ts';

/** What the whole read makes of the payload, or the reason it refuses it. */
function wholeResult(reader: ContractReader, json: string | Buffer): unknown {
  return readOrReason(() => reader.activityResult('run-tool', decodePayloads({ payloads: payloads(json, false) })));
}

const units = [
  'a',
  ' ',
  'я',
  'Ж',
  '漢',
  '😀',
  'e\u0301',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\u0001',
  '\u007f',
  '\u2028',
  '\uD800',
  '\uDFFF',
  '<',
  '&',
];
const text = fc.string({ unit: fc.constantFrom(...units), maxLength: 30 });
const part = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('image_url'), image_url: fc.record({ url: text.map((t) => `data:image/png;base64,${t}`), detail: text }) }),
);
const content = fc.oneof(
  { arbitrary: text, weight: 4 },
  { arbitrary: fc.array(part, { maxLength: 3 }), weight: 3 },
  { arbitrary: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.double())), weight: 1 },
  // Anthropic's content blocks: the next request is read whole.
  { arbitrary: fc.constant([{ type: 'tool_use', id: 't1', name: 'shell', input: { b: 1, a: 2 } }]), weight: 1 },
  { arbitrary: fc.constantFrom(null, 7, 1.5, true, undefined), weight: 1 },
);
/** Other ways to write the same JSON: every non-ASCII character escaped (Python), `<>&` escaped (Go), `/` escaped. */
const rewrite = fc.constantFrom(
  (json: string) => json,
  (json: string) => json.replace(/[^ -~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  (json: string) => json.replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  (json: string) => json.replace(/\//g, '\\/'),
  (json: string) => json.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`),
);

describe('a run_tool result read from its bytes', () => {
  it('equals the decoded payload read whole, and the next request finds its message as the whole read does', () => {
    let readFromBytes = 0;
    const result = fc.record({
      id: fc.constantFrom('call_1', 'call_2', 'вызов', '"q"'),
      content,
      extra: fc.boolean(),
      contentFirst: fc.boolean(),
      spaced: fc.boolean(),
      rewrite,
    });
    fc.assert(
      fc.property(fc.array(result, { minLength: 1, maxLength: 4 }), fc.boolean(), (results, asFile) => {
        const fast = new ContractReader(DEFAULT_KERNEL_MAPPING);
        const whole = new ContractReader(DEFAULT_KERNEL_MAPPING);
        const dialog: unknown[] = [{ role: 'user', content: 'go' }];
        results.forEach(({ id, content, extra, contentFirst, spaced, rewrite }, turn) => {
          const fields = contentFirst ? { content, tool_call_id: id } : { tool_call_id: id, content };
          const json = rewrite(
            JSON.stringify(extra ? { ...fields, is_error: false, meta: [1, { a: 'é' }] } : fields, null, spaced ? 1 : undefined),
          );
          const expected = wholeResult(whole, json);
          const read = fast.toolResult(payloads(json, asFile));
          if (typeof expected === 'string') expect(read).toBeUndefined();
          else if (read) {
            expect(read).toEqual(expected);
            readFromBytes++;
          } else fast.activityResult('run-tool', decodePayloads({ payloads: payloads(json, false) }));
          if (typeof expected === 'string') return;
          dialog.push({ role: 'tool', tool_call_id: id, content });
          const request = JSON.stringify({ runId: 'r', turn, request: { model: 'm', messages: dialog } });
          const decoded = () => decodePayloads({ payloads: payloads(request, false) });
          // As the normalizer reads it: from its bytes, or whole when that reading leaves it.
          const requestRead = fast.callModelInput(payloads(request, asFile)) ?? fast.activityInput('call-model', decoded());
          expect(requestRead).toEqual(whole.activityInput('call-model', decoded()));
        });
      }),
      { numRuns: 300, seed: 2026 },
    );
    expect(readFromBytes).toBeGreaterThan(200);
  });

  it('reads a content string of Cyrillic, CJK, emoji and escaped lone surrogates from its bytes', () => {
    for (const content of ['Сборка упала', '漢字とかな', '😀🚀', 'lone \uD800 and \uDFFF', 'quote " backslash \\ tab \t']) {
      const json = JSON.stringify({ tool_call_id: 'c1', content });
      expect(new ContractReader(DEFAULT_KERNEL_MAPPING).toolResult(payloads(json, true))).toEqual(
        wholeResult(new ContractReader(DEFAULT_KERNEL_MAPPING), json),
      );
    }
  });

  it.each([
    ['content written another way', '{"tool_call_id":"c1","content":"\\u043f"}'],
    ['content with a space', '{"tool_call_id":"c1","content":["x", "y"]}'],
    ['content with a number written otherwise', '{"tool_call_id":"c1","content":[1.0]}'],
    ['a repeated content key', '{"tool_call_id":"c1","content":"a","content":"b"}'],
    ['a repeated content key, escaped', '{"tool_call_id":"c1","content":"a","con\\u0074ent":""}'],
    ['no tool call id', '{"content":"a"}'],
    ['JSON cut short', '{"tool_call_id":"c1","content":"a"'],
    ['a raw control character', '{"tool_call_id":"c1","content":"a\nb"}'],
  ])('leaves %s to the whole read', (_, json) => {
    expect(new ContractReader(DEFAULT_KERNEL_MAPPING).toolResult(payloads(json, true))).toBeUndefined();
  });

  it('leaves malformed UTF-8 in the content to the whole read', () => {
    const json = Buffer.concat([Buffer.from('{"tool_call_id":"c1","content":"a'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    expect(new ContractReader(DEFAULT_KERNEL_MAPPING).toolResult(payloads(json, true))).toBeUndefined();
    expect(wholeResult(new ContractReader(DEFAULT_KERNEL_MAPPING), json)).toMatchObject({ kind: 'run-tool' });
  });
});
