import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
