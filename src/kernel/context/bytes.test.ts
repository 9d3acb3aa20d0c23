import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importPatched } from '../testing/patched-module.ts';
import { formatCount, jsonBytes, utf8Bytes, utf8Head, utf8Tail } from './bytes.ts';

describe('utf8Bytes', () => {
  it('counts what Buffer encodes, for any string including lone surrogates', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'));
      }),
    );
  });

  it('jsonBytes is the UTF-8 size of the JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonBytes(value)).toBe(Buffer.byteLength(JSON.stringify(value), 'utf8'));
      }),
    );
  });
});

describe("the utf16-sizes control's patch", () => {
  it('counts UTF-16 code units, which undercount non-ASCII text and only it', async () => {
    const text = 'Заказ ord_7Gk2 оплачен 💳 注文 e\u0301 \ud83d';
    const patched = await importPatched<typeof import('./bytes.ts')>('utf16-sizes', 'context/bytes.ts');
    expect(utf8Bytes(text)).toBe(Buffer.byteLength(text));
    expect(patched.utf8Bytes(text)).toBe(text.length);
    expect(patched.utf8Bytes(text)).toBeLessThan(Buffer.byteLength(text));
    expect(patched.utf8Bytes('plain ASCII')).toBe(Buffer.byteLength('plain ASCII'));
    expect(patched.jsonBytes({ content: text })).toBe(JSON.stringify({ content: text }).length);
  });
});

describe('utf8Head and utf8Tail', () => {
  it('keep the longest prefix or suffix within the budget without splitting a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(64), (text, budget) => {
        const head = utf8Head(text, budget);
        const tail = utf8Tail(text, budget);
        expect(text.startsWith(head)).toBe(true);
        expect(text.endsWith(tail)).toBe(true);
        expect(utf8Bytes(head)).toBeLessThanOrEqual(budget);
        expect(utf8Bytes(tail)).toBeLessThanOrEqual(budget);
        const nextHead = [...text.slice(head.length)][0];
        if (nextHead !== undefined) expect(utf8Bytes(head + nextHead)).toBeGreaterThan(budget);
        const previousTail = [...text.slice(0, text.length - tail.length)].at(-1);
        if (previousTail !== undefined) expect(utf8Bytes(previousTail + tail)).toBeGreaterThan(budget);
      }),
    );
  });
});

describe('formatCount', () => {
  it('groups thousands with commas, whatever the locale', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(812_345)).toBe('812,345');
    expect(formatCount(2_097_152)).toBe('2,097,152');
    expect(formatCount(-1500)).toBe('-1,500');
  });
});
