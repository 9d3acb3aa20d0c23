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

  it('decodes a re-sent request that changed in places and grew, reusing the earlier one, to the same bytes', () => {
    // A run's requests as their payloads hold them: the dialog again, a few bytes changed in place
    // (a turn number, a counter), messages added or the tail cut; long enough for runs of equal groups.
    // The dialog's bytes from a seed: fast-check's own arrays stay short unless asked, and are slow long.
    const dialogOf = (length: number, seed: number) => Buffer.from(Array.from({ length }, (_, i) => ((i + seed) * 2654435761) >>> 24));
    const request = fc.tuple(
      fc.integer({ min: 0, max: 9000 }).chain((length) => fc.nat().map((seed) => dialogOf(length, seed))),
      fc.array(fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 40 })), { maxLength: 12 }),
      fc.integer({ min: -600, max: 600 }),
    );
    fc.assert(
      fc.property(request, ([dialog, changes, grow]) => {
        const next = Buffer.from(dialog);
        for (const [at, bytes] of changes) if (next.length > 0) Buffer.from(bytes).copy(next, at % next.length);
        const resent =
          grow >= 0 ? Buffer.concat([next, Buffer.alloc(grow, 0x41 + (grow % 26))]) : next.subarray(0, Math.max(0, next.length + grow));
        const earlier = text(dialog.toString('base64')).decodeAfter(undefined, Buffer.alloc(dialog.length));
        expect(earlier.clean && earlier.bytes.equals(dialog)).toBe(true);
        const decoded = text(resent.toString('base64')).decodeAfter(earlier, Buffer.alloc(resent.length + 3));
        // Compared with equals(): a deep comparison of long buffers costs seconds over the runs.
        expect(decoded.clean && decoded.bytes.equals(resent)).toBe(true);
      }),
      { numRuns: 300, seed: 38 },
    );
  });

  it('decodes texts longer than a compared block, alike but in a few places, to the same bytes', () => {
    const block = 1 << 16;
    const dialog = Buffer.from(Array.from({ length: 3 * block }, (_, i) => (i * 7919) % 251));
    for (const at of [0, 5, block - 3, block * 0.75 + 1, 2 * block + 11, 3 * block - 1]) {
      for (const grow of [0, 2, 3, 1000]) {
        const next = Buffer.concat([dialog, Buffer.alloc(grow, 0x7b)]);
        next[Math.floor(at)] = (next[Math.floor(at)] as number) ^ 0xff;
        const earlier = text(dialog.toString('base64')).decodeAfter(undefined, Buffer.alloc(dialog.length));
        const decoded = text(next.toString('base64')).decodeAfter(earlier, Buffer.alloc(next.length));
        expect(decoded.clean && decoded.bytes.equals(next), `a byte changed at ${at}, ${grow} added`).toBe(true);
      }
    }
  });

  it("does not share an earlier text's padded last group with a text that goes on past it", () => {
    // Padding ends base64 for Node's decoder: what follows it is no part of the bytes.
    const first = Buffer.from(Array.from({ length: 301 }, (_, i) => (i * 37) % 256)).toString('base64');
    const earlier = text(first).decodeAfter(undefined, Buffer.alloc(301));
    for (const tail of ['QUJD', 'QUI=']) {
      const decoded = text(first + tail).decodeAfter(earlier, Buffer.alloc(310));
      expect(decoded.clean, tail).toBe(false);
      expect(decoded.bytes.equals(Buffer.from(first + tail, 'base64')), tail).toBe(true);
    }
  });

  it('calls a text clean only when it is whole groups of the alphabet', () => {
    const into = Buffer.alloc(8);
    expect(text('QUJD').decodeAfter(undefined, into).clean).toBe(true);
    expect(text('QUI=').decodeAfter(undefined, into).clean).toBe(true);
    for (const unclean of ['QUJDR', 'QUI', 'QU*D', 'Q=JD']) expect(text(unclean).decodeAfter(undefined, into).clean, unclean).toBe(false);
  });

  it('reads a text of padding alone, and an empty text, as no bytes', () => {
    for (const value of ['', '=', '==']) {
      expect(text(value).decodeAfter(undefined, Buffer.alloc(4)).bytes.length).toBe(0);
    }
  });
});
