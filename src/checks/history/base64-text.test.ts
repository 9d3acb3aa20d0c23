import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Base64Text, type Decoded } from './base64-text.ts';

const text = (value: string): Base64Text => new Base64Text(Buffer.from(value, 'latin1'));

describe('base64 text cut out of a history file', () => {
  it('measures as Buffer.byteLength does, padding and all', () => {
    for (const value of ['', '=', 'QQ', 'QQ=', 'QQ==', 'QUI=', 'QUJD', 'QUJDRA==', 'a=b=']) {
      expect(text(value).byteLength()).toBe(Buffer.byteLength(value, 'base64'));
    }
  });

  it('decodes to the same bytes with or without an earlier text, clean or not', () => {
    const alphabet = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_'.split(''));
    const junk = fc.constantFrom('=', '\n', ' ', '*', '==');
    const chunk = fc.oneof({ weight: 8, arbitrary: fc.string({ unit: alphabet, maxLength: 400 }) }, { weight: 1, arbitrary: junk });
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 8 }), fc.array(fc.tuple(fc.nat(), chunk), { maxLength: 4 }), (parts, edits) => {
        const first = parts.join('');
        let second = first;
        for (const [at, insert] of edits) {
          const i = at % (second.length + 1);
          second = second.slice(0, i) + insert + second.slice(i + insert.length);
        }
        const scratch = [Buffer.alloc(4096), Buffer.alloc(4096)];
        const earlier: Decoded = text(first).decodeAfter(undefined, scratch[0] as Buffer);
        expect(earlier.bytes).toEqual(Buffer.from(first, 'base64'));
        const next = text(second).decodeAfter(earlier, scratch[1] as Buffer);
        expect(next.bytes).toEqual(Buffer.from(second, 'base64'));
      }),
      { numRuns: 500, seed: 17 },
    );
  });

  it("reuses the earlier decoding where a request repeats the last one's text", () => {
    const dialog = Buffer.from(`{"turn":7,"messages":[${'"a long message",'.repeat(200)}"new"]}`);
    const next = Buffer.from(`{"turn":8,"messages":[${'"a long message",'.repeat(200)}"new","newer"]}`);
    const earlier = text(dialog.toString('base64')).decodeAfter(undefined, Buffer.alloc(dialog.length));
    const decoded = text(next.toString('base64')).decodeAfter(earlier, Buffer.alloc(next.length));
    expect(decoded).toMatchObject({ clean: true, bytes: next });
  });
});
