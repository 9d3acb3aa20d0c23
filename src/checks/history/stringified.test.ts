import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStringified } from './stringified.ts';

/** What isStringified must say: the bytes parse to a string that JSON.stringify writes back as the same bytes. */
function roundTrips(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'string' && Buffer.from(JSON.stringify(value)).equals(bytes);
  } catch {
    return false;
  }
}

const TRICKY = [
  'a',
  ' ',
  'я',
  'Ж',
  '漢',
  'か',
  '😀',
  '🇷🇺',
  'e\u0301',
  '"',
  '\\',
  '/',
  '\u0000',
  '\u0001',
  '\b',
  '\t',
  '\n',
  '\f',
  '\r',
  '\u001f',
];
const MORE = ['\u007f', '\u2028', '\u2029', '\uFEFF', '\uFFFD', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uD83D', '\uDE00'];
const unit = fc.oneof(
  fc.constantFrom(...TRICKY, ...MORE),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);
const text = fc.string({ unit, maxLength: 40 });

const hex4 = (code: number) => code.toString(16).padStart(4, '0');
/** Ways to write one code unit inside a JSON string: JSON.stringify's, or another (escaped, raw, uppercase). */
const writings = (c: string): string[] => {
  const code = c.charCodeAt(0);
  const own = JSON.stringify(c).slice(1, -1);
  return [own, `\\u${hex4(code)}`, `\\u${hex4(code).toUpperCase()}`, c, ...(c === '/' ? ['\\/'] : [])];
};

describe('isStringified', () => {
  it("takes JSON.stringify's own writing of any string: Cyrillic, CJK, emoji, controls, lone surrogates", () => {
    fc.assert(fc.property(text, (s) => isStringified(Buffer.from(JSON.stringify(s)))));
    for (const s of [
      '',
      'Привет',
      '漢字とかな',
      '😀🚀',
      'lone \uD800 high',
      'lone \uDFFF low',
      '\uDBFF\uDBFF\uDC00',
      'tab\tquote"back\\',
    ]) {
      expect(isStringified(Buffer.from(JSON.stringify(s))), s).toBe(true);
    }
  });

  it('says the same wherever the bytes sit in memory, whatever comes four bytes at a time', () => {
    // Long strings, their special characters anywhere, at every offset from a 4-byte boundary.
    const long = fc.array(fc.oneof(fc.constantFrom('abcdefgh', 'яж漢', '😀'), fc.constantFrom(...TRICKY, ...MORE)), { maxLength: 30 });
    fc.assert(
      fc.property(long, fc.integer({ min: 0, max: 7 }), fc.boolean(), (parts, offset, escaped) => {
        const s = parts.join('');
        const json = Buffer.from(escaped ? JSON.stringify(s) : `"${s}"`);
        const placed = Buffer.concat([Buffer.alloc(offset), json]).subarray(offset);
        expect(isStringified(placed)).toBe(roundTrips(json));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses every other writing of a string, and anything that is not one', () => {
    const written = fc
      .array(
        unit.chain((c) => fc.constantFrom(...writings(c))),
        { maxLength: 12 },
      )
      .map((parts) => Buffer.from(`"${parts.join('')}"`));
    const bytes = fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.concat([Buffer.from('"'), b, Buffer.from('"')]));
    fc.assert(
      fc.property(fc.oneof(written, bytes), (b) => isStringified(b) === roundTrips(b)),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['an escaped slash', '"a\\/b"'],
    ['a named control as \\u00xx', '"\\u000a"'],
    ['a printable character escaped', '"\\u0041"'],
    ['Cyrillic escaped', '"\\u043f"'],
    ['uppercase hex', '"\\u001F"'],
    ['an escaped surrogate pair', '"\\ud83d\\ude00"'],
    ['a high surrogate before an uppercase low one', '"\\ud83d\\uDE00"'],
    ['a raw control character', '"a\nb"'],
    ['an escaped closing quote', '"abc\\"'],
    ['a backslash before the closing quote', '"abc\\'],
    ['no quotes', 'abc'],
    ['one quote', '"'],
    ['a short escape', '"\\u12"'],
    ['a \\u escape with a letter past f', '"\\u000g"'],
    ['a \\u escape with a byte between the digits and the lowercase letters', '"\\u000Z"'],
    ['a lone surrogate escaped with a letter past f', '"\\ud80z"'],
    ['no opening quote', 'abc"'],
    ['a byte before the opening quote', ':"abc"'],
  ])('refuses %s', (_, json) => {
    expect(isStringified(Buffer.from(json))).toBe(false);
  });

  it('refuses malformed UTF-8: invalid bytes, an encoded surrogate, an overlong form, a cut sequence', () => {
    for (const inner of [[0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xe6, 0xbc], [0xf4, 0x90, 0x80, 0x80]]) {
      expect(isStringified(Buffer.from([0x22, ...inner, 0x22]))).toBe(false);
    }
  });

  it('takes a lone high surrogate followed by text that reads as a low one once its first bytes are skipped', () => {
    // JSON.stringify escapes the lone surrogate and writes the rest as it is: no pair follows.
    for (const s of ['\uD800xudc00', '\uD800\\dc00', '\uD800\ndc00', '\uDBFFabdfff']) {
      const json = Buffer.from(JSON.stringify(s));
      expect(roundTrips(json), s).toBe(true);
      expect(isStringified(json), JSON.stringify(s)).toBe(true);
    }
  });

  it('reads a long string at the very end of its own memory, from any offset off a 4-byte boundary', () => {
    // A string cut from the end of a chunk: no byte of the memory lies past its closing quote.
    const json = Buffer.from(JSON.stringify(`${'tool output '.repeat(600)}\u0001 done`));
    for (let offset = 0; offset < 8; offset++) {
      const memory = Buffer.alloc(offset + json.length);
      json.copy(memory, offset);
      expect(isStringified(memory.subarray(offset)), `offset ${offset}`).toBe(true);
      memory[memory.length - 2] = 0x01;
      expect(isStringified(memory.subarray(offset)), `offset ${offset}, a raw control character`).toBe(false);
    }
  });
});
