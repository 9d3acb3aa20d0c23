import { describe, expect, it } from 'vitest';
import { fitUtf8, Multibyte, utf8Prefix } from './multibyte.ts';
import { Rng } from './random.ts';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('fitUtf8 and utf8Prefix', () => {
  it('cut at a character boundary and pad to exactly the bytes asked for', () => {
    const text = 'ab Жё 注文 💳 \ud83d';
    for (let bytes = 0; bytes <= Buffer.byteLength(text) + 2; bytes++) {
      const fitted = fitUtf8(text, bytes);
      expect(Buffer.byteLength(fitted)).toBe(bytes);
      const prefix = utf8Prefix(text, bytes);
      expect(text.startsWith(prefix)).toBe(true);
      expect(fitted.startsWith(prefix)).toBe(true);
      // A surrogate pair is never split: the prefix ends with a whole character.
      expect(LONE_SURROGATE.test(prefix.replace(/\ud83d$/, ''))).toBe(false);
    }
  });
});

describe('Multibyte', () => {
  it('draws nothing from the generator at a share of 0', () => {
    const rng = new Rng(5);
    const multibyte = new Multibyte(rng, { multibyteShare: 0, loneSurrogateShare: 0 });
    for (let i = 0; i < 100; i++) expect(multibyte.line() || multibyte.loneSurrogate()).toBe(false);
    expect(rng.next()).toBe(new Rng(5).next());
  });

  it('prints lone surrogates as real tools do: a capped log line, a cp1251 name read with surrogateescape', () => {
    const multibyte = new Multibyte(new Rng(9), { multibyteShare: 1, loneSurrogateShare: 1 });
    const cut = multibyte.cutLogMessage();
    expect(cut).toMatch(/[\ud800-\udbff]$/);
    const name = multibyte.cp1251FileName();
    expect(name).toMatch(/^[\udc80-\udcff]/);
    expect(name.match(/[\udc80-\udcff]/g)?.length).toBeGreaterThan(3);
    // Each lone surrogate weighs 3 UTF-8 bytes (U+FFFD) raw, 6 in JSON, and JSON keeps it.
    expect(JSON.parse(JSON.stringify(name))).toBe(name);
  });

  it('keeps file names decomposed (NFD): combining marks', () => {
    const multibyte = new Multibyte(new Rng(3), { multibyteShare: 1, loneSurrogateShare: 0 });
    const names = Array.from({ length: 60 }, () => multibyte.fileName());
    expect(names.some((name) => /[\u0300-\u036f]/.test(name))).toBe(true);
    expect(names.every((name) => name === name.normalize('NFD'))).toBe(true);
  });
});
