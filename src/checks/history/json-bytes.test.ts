import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonStringTextBytes } from './json-bytes.ts';

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

  it('refuses what is not a JSON string', () => {
    expect(jsonStringTextBytes(Buffer.from('[1]'))).toBeUndefined();
    expect(jsonStringTextBytes(Buffer.from('"'))).toBeUndefined();
  });
});
