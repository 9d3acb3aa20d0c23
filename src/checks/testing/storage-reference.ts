/**
 * External Storage references written by hand into a test's history, as a driver writes them:
 * metadata `json/protobuf` and the reference's message type, data its driver and claim, and the
 * stored payload's size in `externalPayloads` (left out where a writer states none).
 */
import type { StoredPayload } from '../history/reference-model.ts';
import type { JsonObject } from './history-builder.ts';

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** A stored JSON payload of exactly `bytes` data bytes, as a driver gives it back. */
export function storedJson(bytes: number): StoredPayload {
  return { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from(`"${'x'.repeat(bytes - 2)}"`) };
}

/** The reference payload of `driverName`'s object `key`, stating `sizeBytes` (none where undefined). */
export function referencePayload(driverName: string, key: string, sizeBytes?: number): JsonObject {
  return {
    metadata: { encoding: base64('json/protobuf'), messageType: base64('temporal.api.sdk.v1.ExternalStorageReference') },
    data: base64(JSON.stringify({ driverName, claimData: { key } })),
    ...(sizeBytes === undefined ? {} : { externalPayloads: [{ sizeBytes: String(sizeBytes) }] }),
  };
}

/** The `activityType` activities' scheduled events of a history's JSON, in order, their attributes to edit. */
export function scheduledOf(history: { events: JsonObject[] }, activityType: string): { input: unknown }[] {
  return history.events
    .map((event) => event.activityTaskScheduledEventAttributes as { activityType?: { name?: string }; input: unknown } | undefined)
    .filter((attributes) => attributes?.activityType?.name === activityType) as { input: unknown }[];
}
