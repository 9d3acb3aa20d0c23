import { describe, expect, it } from 'vitest';
import { TEXT_FORMATS, textOutput } from './text-output.ts';

const MIX = { multibyteShare: 0.4, loneSurrogateShare: 0.01 };
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('textOutput', () => {
  it.each(TEXT_FORMATS)('%s: exactly the requested bytes, ASCII, seeded', (format) => {
    for (const bytes of [1, 200, 4_096, 150_000]) {
      const details = {
        seed: bytes,
        bytes,
        format,
        path: 'src/orders/order-service.ts',
        command: 'npm test',
        base: 'a'.repeat(40),
      };
      const text = textOutput(details);
      expect(Buffer.byteLength(text)).toBe(bytes);
      expect(text).toMatch(/^[\x20-\x7e\n]*$/);
      expect(textOutput(details)).toBe(text);
      if (bytes > 1_000) expect(textOutput({ ...details, seed: bytes + 1 })).not.toBe(text);
    }
  });

  it('looks like its format and names its details', () => {
    const details = {
      seed: 3,
      bytes: 6_000,
      path: 'src/orders/order-service.ts',
      command: 'kubectl logs deploy/x',
    };
    expect(textOutput({ ...details, format: 'log' })).toMatch(
      /^\$ kubectl logs deploy\/x\n\d{4}-\d\d-\d\dT[\d:.]+Z (INFO|DEBUG|WARN|ERROR)/,
    );
    expect(textOutput({ ...details, format: 'diff' })).toMatch(/^\$ kubectl logs deploy\/x\ndiff --git a\/src\/orders\/order-service.ts/);
    expect(textOutput({ ...details, format: 'stack-trace' })).toMatch(/\n {4}at \w+\.\w+ \(\/workspace\/src\/[\w/.-]+:\d+:\d+\)/);
    expect(textOutput({ ...details, format: 'listing' })).toMatch(/-rw-r--r-- {2}1 agent staff +\d+ \w{3} [ \d]\d \d\d:\d\d /);
    expect(textOutput({ ...details, format: 'code' })).toContain('// src/orders/order-service.ts');
    expect(textOutput({ ...details, format: 'page' })).toMatch(
      /^\$ kubectl logs deploy\/x\n# \w+ Admin\n\[Dashboard\] \[\w+s\] \[Settings\] \[Sign out\]\n\n## \w+s \(\d+\)\n\| ID \| Status /,
    );
  });

  it('keeps JSON documents valid at any size above their skeleton', () => {
    for (const bytes of [200, 1_000, 33_333, 250_000]) {
      const text = textOutput({ seed: bytes, bytes, format: 'json' });
      expect(text.length).toBe(bytes);
      const doc = JSON.parse(text) as {
        items: { sha: string }[];
        next_cursor: string;
      };
      expect(doc.items.every((item) => /^[0-9a-f]{40}$/.test(item.sha))).toBe(true);
    }
  });

  it.each(TEXT_FORMATS)('%s with non-ASCII lines: exactly the requested UTF-8 bytes, seeded', (format) => {
    for (const bytes of [1, 3, 200, 4_096, 150_000]) {
      const details = { seed: bytes, bytes, format, path: 'src/orders/order-service.ts', command: 'npm test', mix: MIX };
      const text = textOutput(details);
      expect(Buffer.byteLength(text)).toBe(bytes);
      expect(textOutput(details)).toBe(text);
      if (bytes > 4_000) expect(text.length).toBeLessThan(bytes);
    }
  });

  it('holds Cyrillic, CJK, astral emoji, combining marks and lone surrogates, where real tools print them', () => {
    const all = TEXT_FORMATS.map((format) => textOutput({ seed: 7, bytes: 60_000, format, mix: MIX })).join('\n');
    expect(all).toMatch(/[\u0400-\u04ff]/);
    expect(all).toMatch(/[\u4e00-\u9fff\u3040-\u30ff]/);
    expect(all).toMatch(/[\ud83c-\ud83e][\udc00-\udfff]/);
    expect(all).toMatch(/[\u0300-\u036f]/);
    const listing = textOutput({ seed: 7, bytes: 60_000, format: 'listing', mix: MIX });
    const log = textOutput({ seed: 7, bytes: 60_000, format: 'log', mix: MIX });
    expect(listing).toMatch(/[\udc80-\udcff]/);
    expect(log).toMatch(/[\ud800-\udbff]\n/);
    for (const format of ['json', 'yaml', 'code'] as const) {
      expect(textOutput({ seed: 7, bytes: 60_000, format, mix: MIX })).not.toMatch(LONE_SURROGATE);
    }
  });

  it('keeps JSON documents with non-ASCII values valid', () => {
    for (const bytes of [200, 33_333]) {
      const text = textOutput({ seed: bytes, bytes, format: 'json', mix: MIX });
      expect(Buffer.byteLength(text)).toBe(bytes);
      expect(() => JSON.parse(text)).not.toThrow();
    }
  });
});
