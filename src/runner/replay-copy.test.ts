import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import proto, { type temporal } from '@temporalio/proto';
import { afterAll, describe, expect, it } from 'vitest';
import { closeReplayers, replayHistories } from './replay.ts';
import { replayCopy } from './replay-copy.ts';

const { History } = proto.temporal.api.history.v1;
const V0_CORPUS = fileURLToPath(new URL('../../test/corpus/v0/', import.meta.url));

/** v0's recorded executions, each decoded from one buffer as a page of the API is. */
function v0Pages(): { buffer: ArrayBufferLike; events: temporal.api.history.v1.IHistoryEvent[] }[] {
  return readdirSync(V0_CORPUS)
    .filter((file) => file.endsWith('.json.gz'))
    .map((file) => {
      const json = JSON.parse(gunzipSync(readFileSync(join(V0_CORPUS, file))).toString('utf8')) as unknown;
      const bytes = History.encode(historyFromJSON(json)).finish();
      return { buffer: bytes.buffer, events: History.decode(bytes).events };
    });
}

/** Whether two event lists encode to the same bytes (compared as buffers: a deep equality of MBs is slow). */
function sameEvents(a: temporal.api.history.v1.IHistoryEvent[], b: temporal.api.history.v1.IHistoryEvent[]): boolean {
  return Buffer.from(History.encode({ events: a }).finish()).equals(History.encode({ events: b }).finish());
}

function bytesFields(value: unknown, found: Uint8Array[] = []): Uint8Array[] {
  if (value instanceof Uint8Array) found.push(value);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) bytesFields(item, found);
  return found;
}

describe('replayCopy', () => {
  afterAll(closeReplayers);

  it('leaves out the activities inputs and nothing else, and holds none of the page', () => {
    for (const page of v0Pages()) {
      const copy = replayCopy(page.events, { activityInputs: false });
      const scheduled = page.events.filter((e) => e.activityTaskScheduledEventAttributes);
      expect(scheduled.filter((e) => e.activityTaskScheduledEventAttributes?.input?.payloads?.length).length).toBeGreaterThan(0);
      expect(copy.filter((e) => e.activityTaskScheduledEventAttributes?.input)).toEqual([]);
      for (const event of scheduled)
        if (event.activityTaskScheduledEventAttributes) event.activityTaskScheduledEventAttributes.input = null;
      expect(sameEvents(copy, page.events)).toBe(true);
      expect(bytesFields(copy).filter((bytes) => bytes.buffer === page.buffer)).toEqual([]);
    }
  });

  it('keeps them for a replayer that may read them', () => {
    for (const page of v0Pages()) {
      const copy = replayCopy(page.events, { activityInputs: true });
      expect(sameEvents(copy, page.events)).toBe(true);
      expect(bytesFields(copy).filter((bytes) => bytes.buffer === page.buffer)).toEqual([]);
    }
  });

  it('replays as the whole history does: on the next release, and failing on the ungated control', async () => {
    const whole = v0Pages().map((page) => ({ events: page.events }));
    const copies = v0Pages().map((page) => ({ events: replayCopy(page.events, { activityInputs: false }) }));
    for (const binary of ['v1', 'ungated'] as const) {
      const [ofWhole, ofCopies] = [await replayHistories(binary, 'v0', whole), await replayHistories(binary, 'v0', copies)];
      expect(ofCopies).toEqual(ofWhole);
      expect(ofWhole.errors.length > 0).toBe(binary === 'ungated');
    }
  }, 60_000);
});
