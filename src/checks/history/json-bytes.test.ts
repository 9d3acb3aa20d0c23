import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSpace, jsonStringTextBytes } from './json-bytes.ts';

const raw = (text: string) => Buffer.from(JSON.stringify(text));

describe('jsonStringTextBytes', () => {
  it('counts the UTF-8 bytes of the text a JSON string holds, escapes as what they stand for', () => {
    expect(jsonStringTextBytes(raw('plain'))).toBe(5);
    expect(jsonStringTextBytes(raw('a\nb"c\\d\u0001'))).toBe(8);
    expect(jsonStringTextBytes(Buffer.from('"\\u00e9\\u4e2d\\ud83d\\ude00"'))).toBe(2 + 3 + 4);
    expect(jsonStringTextBytes(raw('кириллица 中文 😀'))).toBe(Buffer.byteLength('кириллица 中文 😀'));
  });

  it('counts a lone surrogate as U+FFFD (3 bytes), as Node writes it', () => {
    expect(jsonStringTextBytes(raw('x\ud800y'))).toBe(Buffer.byteLength('x\ud800y'));
    expect(jsonStringTextBytes(raw('\udc00\ud800'))).toBe(6);
  });

  it('agrees with decoding for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(jsonStringTextBytes(raw(text))).toBe(Buffer.byteLength(text));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    '"\\ud83d\\ude00"',
    '"\\ud800\\udc00"',
    '"\\udbff\\udfff"',
    '"\\ud800\\ue000"',
    '"\\udc00\\udc00"',
    '"\\u00e9\\udc00"',
    '"\\ud83dXXdc00"',
    '"\\ud83dXudc00"',
    '"\\ud83d\\ndc00"',
    '"\\u007f\\u0080\\u07ff\\u0800"',
  ])('counts each escape at the edges of its width and of the surrogate ranges: %s', (written) => {
    expect(jsonStringTextBytes(Buffer.from(written))).toBe(Buffer.byteLength(JSON.parse(written) as string));
  });

  it('refuses what is not a JSON string', () => {
    expect(jsonStringTextBytes(Buffer.from('a"'))).toBeUndefined();
    expect(jsonStringTextBytes(Buffer.from('"a'))).toBeUndefined();
    expect(jsonStringTextBytes(Buffer.from('[1]'))).toBeUndefined();
    expect(jsonStringTextBytes(Buffer.from('"'))).toBeUndefined();
  });
});

describe('isSpace', () => {
  it("is JSON's four whitespace characters and nothing else", () => {
    expect([' ', '\n', '\r', '\t'].map((c) => isSpace(c.charCodeAt(0)))).toEqual([true, true, true, true]);
    expect(['\f', '\v', '\u00a0', 'x', '{', '"'].map((c) => isSpace(c.charCodeAt(0)))).toEqual([false, false, false, false, false, false]);
    expect(isSpace(undefined)).toBe(false);
  });
});
