import { describe, expect, it } from 'vitest';
import { type CutArray, cutArray, cutValue, type MessageArray, skipString } from './message-spans.ts';

/** A seeded PRNG (mulberry32): the same payloads on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Strings that stress the scanner: escaped quotes and backslashes, brackets and separators inside, multi-byte text. */
const TEXTS = ['', 'a', 'say "hi"', 'back\\slash', 'ends with \\', '\\"', 'line\nbreak', 'tab\t', 'é', '😀', '\u0000', '[{,:}]', ']', '"'];

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T;
}

function value(r: () => number, depth: number): unknown {
  switch (Math.floor(r() * (depth > 2 ? 3 : 5))) {
    case 0:
      return pick(r, TEXTS);
    case 1:
      return pick(r, [0, -1, 12.5, 1e21, 7, 123456]);
    case 2:
      return pick(r, [true, false, null]);
    case 3:
      return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, (_, i) => [`${pick(r, TEXTS)}${i}`, value(r, depth + 1)]));
  }
}

/** JSON's four spaces, every way JSON.stringify can lay a payload out with them. */
const LAYOUTS = [undefined, 1, '\t', ' \r'] as const;

/** The value at `path` in `root`, and `root` with `[]` (or `""`) in its place. */
function apart(root: Record<string, unknown>, path: readonly string[], stand: unknown): { at: unknown; rest: unknown } {
  const rest = structuredClone(root);
  let holder = rest as Record<string, unknown>;
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
  const last = path.at(-1) as string;
  const at = holder[last];
  holder[last] = stand;
  return { at, rest };
}

/** The cut array's bytes hold its items, each span exactly one, nothing but separators between them. */
function expectItems(cut: CutArray, items: unknown[]): void {
  const text = cut.array.bytes.toString('utf8');
  expect(JSON.parse(text)).toEqual(items);
  expect(cut.array.spans.map(([start, end]) => JSON.parse(cut.array.bytes.toString('utf8', start, end)))).toEqual(items);
  const edges = [0, ...cut.array.spans.flat(), cut.array.bytes.length];
  const between = [];
  for (let i = 0; i < edges.length; i += 2) between.push(cut.array.bytes.toString('utf8', edges[i], edges[i + 1]));
  expect(between.map((b) => b.replace(/[ \t\n\r]/g, ''))).toEqual(
    items.length === 0 ? ['[]'] : ['[', ...Array.from({ length: items.length - 1 }, () => ','), ']'],
  );
}

function payload(r: () => number, messages: unknown[]): Record<string, unknown> {
  const keys = [`${pick(r, TEXTS)}a`, `${pick(r, TEXTS)}b`];
  const entries: [string, unknown][] = [
    [keys[0] as string, value(r, 1)],
    ['messages', messages],
    [keys[1] as string, value(r, 1)],
  ];
  const start = Math.floor(r() * 3);
  return Object.fromEntries([...entries.slice(start), ...entries.slice(0, start)]);
}

describe("cutArray finds a request's messages in its JSON bytes", () => {
  it('in any layout, among keys before and after, as JSON.parse reads them', () => {
    const r = random(7);
    for (let n = 0; n < 300; n++) {
      const messages = Array.from({ length: Math.floor(r() * 5) }, () => value(r, 1));
      const root = payload(r, messages);
      const nested = r() < 0.5;
      const whole = nested ? { model: 'm', request: root } : root;
      const path = nested ? ['request', 'messages'] : ['messages'];
      const text = JSON.stringify(whole, null, pick(r, LAYOUTS));
      const cut = cutArray(Buffer.from(text), path);
      if (!cut) throw new Error(`not cut: ${text}`);
      expectItems(cut, messages);
      expect(JSON.parse(cut.rest)).toEqual(apart(whole, path, []).rest);
      expect(cut.shared).toBe(0);
    }
  });

  it("reuses the spans of the earlier request's messages the new one starts with, byte for byte", () => {
    const r = random(11);
    for (let n = 0; n < 300; n++) {
      const layout = pick(r, LAYOUTS);
      const before = Array.from({ length: Math.floor(r() * 5) }, () => value(r, 1));
      const kept = Math.floor(r() * (before.length + 1));
      const after = [...before.slice(0, kept), ...Array.from({ length: Math.floor(r() * 3) }, () => value(r, 1))];
      const first = cutArray(Buffer.from(JSON.stringify({ messages: before }, null, layout)), ['messages']) as CutArray;
      const cut = cutArray(Buffer.from(JSON.stringify({ model: 'm', messages: after }, null, layout)), ['messages'], first.array);
      if (!cut) throw new Error(`not cut: ${JSON.stringify(after)}`);
      expectItems(cut, after);
      let same = 0;
      while (same < Math.min(before.length, after.length) && JSON.stringify(before[same]) === JSON.stringify(after[same])) same++;
      expect(cut.shared, JSON.stringify({ before, after })).toBe(same);
      expect(cut.array.spans.slice(0, same)).toEqual(first.array.spans.slice(0, same));
    }
  });

  it('counts the messages shared at every length, the earlier array longer or shorter', () => {
    const earlier = (count: number): MessageArray =>
      (cutArray(Buffer.from(JSON.stringify({ messages: Array.from({ length: count }, (_, i) => ({ m: i })) })), ['messages']) as CutArray)
        .array;
    for (const before of [0, 1, 2, 3, 4, 7, 8]) {
      for (const after of [0, 1, 2, 3, 5, 8, 9]) {
        for (const changed of [undefined, 0, 1, 2, 6]) {
          const messages = Array.from({ length: after }, (_, i) => ({ m: i === changed ? 'x' : i }));
          const cut = cutArray(Buffer.from(JSON.stringify({ messages })), ['messages'], earlier(before)) as CutArray;
          const same = Math.min(before, after, changed ?? Number.POSITIVE_INFINITY);
          expect(cut.shared, `${before} -> ${after}, changed ${changed}`).toBe(same);
          expectItems(cut, messages);
        }
      }
    }
  });

  it('leaves to JSON.parse what it does not take: undefined', () => {
    const refused = [
      '{"messages":[1,2],"messages":[3]}', // a repeated key: JSON.parse keeps the last
      '{"messages":{"a":1}}', // not an array
      '{"messages":"[1]"}',
      '{"other":[1]}', // no such key
      '{"messages":[1 2]}',
      '{"messages":[1,]}',
      '{"messages":[,1]}',
      '{"messages":[1]',
      '{"messages":[{"a":1}x{"b":2}]}', // a byte where a comma or a colon belongs
      '{"a":"b"x"messages":[1]}',
      '{"messages"x[1]}',
      '{"messages":x1]}', // no opening bracket
      '{"messages":[1]} x', // something after the root
      '{"messages":[1]}}',
      '["messages"]',
      '{messages:[1]}',
      '{"messages" [1]}',
      '{"messages":[1] "a":2}',
      '{"messages":["a]}',
      '{"messages":[{"a":[}]}',
      '{"messages":[{"a":1}',
      '{"mess\\u0061ges":[1],"x"}',
      '{"a\\x":1,"messages":[1]}', // a key JSON.parse refuses
      '{"messages":[1],',
      '',
    ];
    for (const text of refused) expect(cutArray(Buffer.from(text), ['messages']), text).toBeUndefined();
    expect(cutArray(Buffer.from('{"request":7}'), ['request', 'messages'])).toBeUndefined();
    expect(cutArray(Buffer.from('{"request":{"messages":[]},"request":{"messages":[]}}'), ['request', 'messages'])).toBeUndefined();
    expect(cutArray(Buffer.from('{"messages":[1]}'), [])).toBeUndefined();
  });

  it('reads a key by its value, escapes and all, and takes an empty object or array', () => {
    const cut = cutArray(Buffer.from('{"mess\\u0061ges":[1]}'), ['messages']) as CutArray;
    expect(cut.rest).toBe('{"mess\\u0061ges":[]}');
    expect(cut.array.spans).toEqual([[1, 2]]);
    expect(cutArray(Buffer.from(' {"messages" : [ ] } '), ['messages'])).toEqual({
      rest: ' {"messages" : [] } ',
      array: { bytes: Buffer.from('[ ]'), spans: [] },
      shared: 0,
    });
    expect(cutArray(Buffer.from('{}'), ['messages'])).toBeUndefined();
    expect(cutArray(Buffer.from('{"messages":[{},[],""]}'), ['messages'])?.array.spans).toEqual([
      [1, 3],
      [4, 6],
      [7, 9],
    ]);
  });
});

describe('cutValue', () => {
  it('finds the value at a path, whatever it is, and puts "" in its place', () => {
    const r = random(5);
    for (let n = 0; n < 200; n++) {
      const content = value(r, 0);
      const root = { output: { id: 'c', content, after: value(r, 1) }, before: 1 };
      const text = JSON.stringify(root, null, pick(r, LAYOUTS));
      const cut = cutValue(Buffer.from(text), ['output', 'content']);
      if (!cut) throw new Error(`not cut: ${text}`);
      expect(JSON.parse(cut.value.toString('utf8'))).toEqual(content);
      expect(cut.value.toString('utf8')).toBe(cut.value.toString('utf8').trim());
      expect(JSON.parse(cut.rest)).toEqual(apart(root, ['output', 'content'], '').rest);
    }
  });

  it('undefined for a path that is not there, or a value it cannot end', () => {
    expect(cutValue(Buffer.from('{"output":{"id":1}}'), ['output', 'content'])).toBeUndefined();
    expect(cutValue(Buffer.from('{"output":{"content":}}'), ['output', 'content'])).toBeUndefined();
    expect(cutValue(Buffer.from('{"output":{"content":[1}}'), ['output', 'content'])).toBeUndefined();
    expect(cutValue(Buffer.from('{"content":12'), ['content'])).toBeUndefined();
    expect(cutValue(Buffer.from('{"content":12}'), ['content'])?.value.toString()).toBe('12');
    expect(cutValue(Buffer.from('{"content":true\t}'), ['content'])?.value.toString()).toBe('true');
    expect(cutValue(Buffer.from('{"content":-1}'), ['content'])?.value.toString()).toBe('-1');
    // A number ends at any delimiter, and nowhere else.
    for (const after of [',2]', ']', ' ]', '\n]', '\r]', '\t]']) {
      const text = `{"messages":[-1${after}}`;
      expect(cutArray(Buffer.from(text), ['messages'])?.array.spans[0], JSON.stringify(text)).toEqual([1, 3]);
    }
    // Anything else is part of it, for JSON.parse to judge.
    expect(cutArray(Buffer.from('{"messages":[-1:]}'), ['messages'])?.array.spans).toEqual([[1, 4]]);
  });
});

describe('skipString', () => {
  it('ends a string at the first quote after an even number of backslashes', () => {
    for (const text of TEXTS) {
      const raw = JSON.stringify(text);
      const bytes = Buffer.from(`${raw},"next"`);
      expect(skipString(bytes, 0), raw).toBe(Buffer.byteLength(raw));
    }
    expect(skipString(Buffer.from('x"a\\\\\\"b"'), 1)).toBe(9);
    expect(() => skipString(Buffer.from('"a\\"'), 0)).toThrow();
    expect(() => skipString(Buffer.from('"abc'), 0)).toThrow();
  });
});
