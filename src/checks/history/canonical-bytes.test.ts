import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../contract/journal-hash.ts';
import { canonicalPieces } from './canonical-bytes.ts';

const units = ['a', 'b', 'я', '漢', '😀', '"', '\\', '/', '\n', '\u0001', '\uD800', '\uDFFF', '1', ' '];
const text = fc.string({ unit: fc.constantFrom(...units), maxLength: 8 });
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.constantFrom(0, -1, 1.5, 1e21, 2 ** 53, -0.000001, true, false, null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** What canonicalPieces must give: canonicalJson of the value, when the bytes are JSON.stringify's writing of it. */
function expected(bytes: Buffer): string | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return Buffer.from(JSON.stringify(value)).equals(bytes) ? canonicalJson(value) : undefined;
  } catch {
    return undefined;
  }
}

const read = (bytes: Buffer): string | undefined => {
  const pieces = canonicalPieces(bytes);
  return pieces && Buffer.concat(pieces).toString('utf8');
};

describe('canonicalPieces', () => {
  it("gives canonicalJson of any value from JSON.stringify's bytes: keys sorted, strings of any script as they are", () => {
    fc.assert(
      fc.property(json, (value) => {
        const bytes = Buffer.from(JSON.stringify(value));
        const pieces = read(bytes);
        // Digit keys are left to JSON.parse, which moves them first.
        if (pieces === undefined) expect(JSON.stringify(value)).toMatch(/"\d+":/);
        else expect(pieces).toBe(canonicalJson(value));
      }),
      { numRuns: 2000, seed: 2026 },
    );
  });

  it('refuses any other writing of a value', () => {
    const rewrite = fc.constantFrom(
      (s: string) => s.replace(/:/g, ': '),
      (s: string) => s.replace(/,/g, ' ,'),
      (s: string) => ` ${s}`,
      (s: string) => s.replace(/я/g, '\\u044f'),
      (s: string) => s.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`),
      (s: string) => s.replace(/1\.5/g, '1.50'),
      (s: string) => s.replace(/1e\+21/g, '1E21'),
      (s: string) => s.replace(/true/g, 'tru'),
      (s: string) => s.replace(/}$/, ',"a":1,"a":2}'),
      (s: string) => s.replace(/\]$/, ',]'),
    );
    fc.assert(
      fc.property(json, rewrite, (value, change) => {
        const bytes = Buffer.from(change(JSON.stringify(value)));
        const pieces = read(bytes);
        if (pieces !== undefined) expect(pieces).toBe(expected(bytes));
      }),
      { numRuns: 2000, seed: 2026 },
    );
  });

  it.each([
    ['a repeated key', '{"a":1,"a":2}'],
    ['a digit key', '{"b":1,"1":2}'],
    ['a key of digits', '{"b":1,"12":2}'],
    ['an array closed by a brace', '[1}'],
    ['an object closed by a bracket', '{"a":1]'],
    ['a key without its colon', '{"a"11}'],
    ['a space', '[1, 2]'],
    ['a number written otherwise', '[1.0]'],
    ['negative zero', '-0'],
    ['a string written otherwise', '"\\u0041"'],
    ['trailing bytes', '[1]x'],
    ['an unclosed array', '[1,2'],
    ['a trailing comma', '{"a":1,}'],
  ])('refuses %s', (_, written) => {
    expect(canonicalPieces(Buffer.from(written))).toBeUndefined();
  });

  it('sorts keys at every depth, as canonicalJson does', () => {
    const value = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR', detail: 'high' }, я: 1, Z: [{ b: 1, a: '漢' }] };
    expect(read(Buffer.from(JSON.stringify(value)))).toBe(canonicalJson(value));
  });
});
