import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Base64Text } from './base64-text.ts';
import { HistoryFileShapeError, streamHistoryEvents } from './event-stream.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'longrun-stream-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(path: string, chunkBytes: number, cutDataBytes?: number): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const event of streamHistoryEvents(path, chunkBytes, cutDataBytes)) events.push(event);
  return events;
}

describe('streaming the events of a history file', () => {
  const tricky = {
    before: { events: 'not these', list: [{ a: '}]' }] },
    events: [
      { eventId: '1', text: 'quote " backslash \\ brace } bracket ] done' },
      { eventId: '2', nested: { deep: [[{ x: '\\"' }]], unicode: 'é 漢字 😀' } },
      { eventId: '3', trailing: '\\' },
    ],
    nextPageToken: null,
  };

  it.each([1, 7, 64, 1 << 20])('yields every event whole with %i-byte chunks', async (chunk) => {
    const path = join(dir, `tricky-${chunk}.json`);
    await writeFile(path, JSON.stringify(tricky, null, 2));
    expect(await collect(path, chunk)).toEqual(tricky.events);
  });

  it('yields exactly what JSON.parse reads, whatever the strings hold and wherever chunks split', async () => {
    const path = join(dir, 'property.json');
    const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', '{', '}', '[', ']', ',', ':', 'é', '\n', ' ') });
    const event = fc.dictionary(fc.constantFrom('eventId', 'x', 'events'), fc.oneof(text, fc.array(text, { maxLength: 3 })));
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 5 }), fc.integer({ min: 1, max: 40 }), async (events, chunk) => {
        await writeFile(path, JSON.stringify({ a: 'x"}]\\', events, z: ['"]}'] }));
        expect(await collect(path, chunk)).toEqual(events);
      }),
      { numRuns: 200, seed: 2026 },
    );
  });

  it('refuses what is not a history, naming the byte', async () => {
    const path = join(dir, 'scalar.json');
    await writeFile(path, '{"events": [1]}');
    await expect(collect(path, 4)).rejects.toThrow(new HistoryFileShapeError('events[0] is not an object (byte 12)'));
    await writeFile(path, '{"events": []} {}');
    await expect(collect(path, 4)).rejects.toThrow('unexpected content after the history object');
  });

  it('reads a file whose first string is empty or opens with an escape', async () => {
    // No byte is taken for escaped before the file's first backslash: the empty key closes at its second quote.
    const path = join(dir, 'first-string.json');
    for (const text of ['{"": 0, "events": [{"eventId": "1"}]}', '{"\\"note": 0, "events": [{"eventId": "1"}]}']) {
      await writeFile(path, text);
      for (const chunk of [1, 64]) expect(await collect(path, chunk)).toEqual([{ eventId: '1' }]);
    }
  });

  it("reads the API's wrapper, { history: { events } }, and no events array nested elsewhere", async () => {
    const path = join(dir, 'wrapped.json');
    const events = [{ eventId: '1' }, { eventId: '2' }];
    await writeFile(
      path,
      JSON.stringify({ other: { events: [{ eventId: 'x' }] }, history: { events }, nextPageToken: null, archived: false }),
    );
    expect(await collect(path, 5)).toEqual(events);
    await writeFile(path, JSON.stringify({ history: ['events', [{ eventId: 'x' }]] }));
    await expect(collect(path, 5)).rejects.toThrow('no "events" array');
  });

  it('places a malformed event at the byte where JSON.parse stopped', async () => {
    const path = join(dir, 'broken.json');
    const text = '{"events": [{"eventId": "1", "é": "漢字" "eventType": 1}]}';
    await writeFile(path, text);
    const at = Buffer.byteLength(text.slice(0, text.indexOf('"eventType"')));
    await expect(collect(path, 8)).rejects.toThrow(new RegExp(`^event #1 is not valid JSON \\(.+\\) \\(byte ${at}\\)$`));
  });

  it('cuts long data strings out as base64 text, wherever chunks split, and leaves every other string alone', async () => {
    const path = join(dir, 'payloads.json');
    const long = Buffer.alloc(900, 7).toString('base64');
    const event = {
      eventId: '1',
      attributes: { input: { payloads: [{ metadata: { encoding: 'anNvbg==' }, data: long }] }, note: long },
      short: { data: 'QUJD' },
      escaped: { data: `${long.slice(0, 600)}\\/${long.slice(600)}` },
      wide: { data: `é${long}` },
      list: ['data', long],
    };
    await writeFile(path, JSON.stringify({ events: [event, { eventId: '2', data: long }] }));
    for (const chunk of [1, 13, 512, 1 << 20]) {
      const [first, second] = (await collect(path, chunk, 1024)) as [typeof event, { data: unknown }];
      const cut = first.attributes.input.payloads[0]?.data as unknown as Base64Text;
      expect(cut).toBeInstanceOf(Base64Text);
      expect(cut.ascii.toString()).toBe(long);
      expect(cut.byteLength()).toBe(900);
      expect(second.data).toBeInstanceOf(Base64Text);
      expect({ ...first, attributes: { ...first.attributes, input: undefined } }).toEqual({
        ...event,
        attributes: { ...event.attributes, input: undefined },
      });
    }
  });

  it('names a malformed event with cut strings as the whole text does', async () => {
    const path = join(dir, 'broken-cut.json');
    const text = `{"events": [{"eventId": "1", "data": "${'QUJD'.repeat(400)}" "eventType": 1}]}`;
    await writeFile(path, text);
    const at = Buffer.byteLength(text.slice(0, text.indexOf('"eventType"')));
    await expect(collect(path, 64, 1024)).rejects.toThrow(new RegExp(`^event #1 is not valid JSON \\(.+\\) \\(byte ${at}\\)$`));
  });
});

describe('a file that is not a history', () => {
  it.each([
    ['"text"', 'not a JSON object with an "events" array, nor an array of events (byte 0)'],
    ['  7', 'not a JSON object with an "events" array, nor an array of events (byte 2)'],
    ['{"events": {"eventId": "1"}}', '"events" is not an array (byte 11)'],
    ['{"history": {"events": 5}}', 'no "events" array (byte 26)'],
    ['[{"eventId": "1"}, [2]]', 'events[1] is not an object (byte 19)'],
    // A scalar event away from a chunk's start (at 64-byte chunks) is named by its byte in the file, not in the chunk.
    ['{"events": [{"eventId": "1"}, 2]}', 'events[1] is not an object (byte 30)'],
    ['{"events": [{"eventId": "1"', 'the file ends inside event #1 (byte 27)'],
    ['{"events": []', 'the file ends before the history object closes (byte 13)'],
    // A bracket that closes nothing comes after the root closed (or before it opened): "unbalanced brackets" never shows.
    ['{"events": []}}', 'unexpected content after the history object (byte 14)'],
    ['{"other": []}', 'no "events" array (byte 13)'],
    ['', 'the file ends before the history object closes (byte 0)'],
  ])('refuses %j, naming the byte', async (text, problem) => {
    const path = join(dir, 'refused.json');
    await writeFile(path, text);
    for (const chunk of [1, 3, 64]) await expect(collect(path, chunk)).rejects.toThrow(new HistoryFileShapeError(problem));
  });

  it('reads a gzipped file, and refuses the second events array of a file', async () => {
    const path = join(dir, 'events.json.gz');
    await writeFile(path, gzipSync(JSON.stringify([{ eventId: '1' }, { eventId: '2' }])));
    expect(await collect(path, 64)).toEqual([{ eventId: '1' }, { eventId: '2' }]);
    const twice = join(dir, 'twice.json');
    await writeFile(twice, '{"events": [{"eventId": "1"}], "history": {"events": [{"eventId": "2"}]}}');
    expect(await collect(twice, 5)).toEqual([{ eventId: '1' }]);
  });
});

describe('the scanner at its edges', () => {
  const long = Buffer.alloc(900, 7).toString('base64');

  it('finds the events in the wrapper alone, after another key, and no events in a later array of objects', async () => {
    const path = join(dir, 'edges.json');
    for (const text of [
      '{"history": {"events": [{"eventId": "1"}]}}',
      '{"history": {"x": 1, "events": [{"eventId": "1"}]}}',
      '{"data": "abc", "events": [{"eventId": "1"}], "next": [{"eventId": "2"}]}',
    ]) {
      await writeFile(path, text);
      for (const chunk of [1, 64]) expect(await collect(path, chunk)).toEqual([{ eventId: '1' }]);
    }
  });

  it('cuts a data string from exactly the threshold on, the first key of its object too, and no string of a list', async () => {
    const path = join(dir, 'cuts.json');
    const event = {
      first: { data: long },
      exact: { data: long.slice(0, 1024) },
      under: { data: long.slice(0, 1023) },
      lists: [[long], [1, long], [{ a: 1 }, long]],
      small: { data: 'x0' },
      note: '\u00000',
    };
    await writeFile(path, JSON.stringify({ events: [event] }));
    for (const chunk of [7, 1 << 20]) {
      const [read] = (await collect(path, chunk, 1024)) as [Record<string, { data: unknown }>];
      expect(read.first?.data).toBeInstanceOf(Base64Text);
      expect(read.exact?.data).toBeInstanceOf(Base64Text);
      expect(read.under?.data).toBe(long.slice(0, 1023));
      expect({ ...read, first: undefined, exact: undefined }).toEqual({ ...event, first: undefined, exact: undefined });
    }
    // A data key of another kind beside a cut string: the event reads as it is.
    await writeFile(path, JSON.stringify({ events: [{ data: long, other: { data: 5 } }] }));
    const [mixed] = (await collect(path, 64, 1024)) as [{ data: unknown; other: unknown }];
    expect(mixed.data).toBeInstanceOf(Base64Text);
    expect(mixed.other).toEqual({ data: 5 });
  });

  it("names an event's JSON error without V8's position text, and places one V8 gives no position for at the event's close", async () => {
    const path = join(dir, 'errors.json');
    const text = '{"events": [{"eventId": "1" "eventType": 1}]}';
    await writeFile(path, text);
    const at = text.indexOf('"eventType"');
    await expect(collect(path, 64)).rejects.toThrow(
      new HistoryFileShapeError(`event #1 is not valid JSON (Expected ',' or '}' after property value) (byte ${at})`),
    );
    const noPosition = '{"events": [{"a": tru}]}';
    await writeFile(path, noPosition);
    await expect(collect(path, 64)).rejects.toThrow(
      new RegExp(`^event #1 is not valid JSON \\(.+\\) \\(byte ${noPosition.indexOf('}')}\\)$`),
    );
  });
});
