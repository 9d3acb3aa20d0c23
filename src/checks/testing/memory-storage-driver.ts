/**
 * An External Storage driver that keeps payloads in memory, for recording offloaded histories
 * with the SDK's real `ExternalStorage` (test support: a real store is S3, through the official
 * driver). Content-addressed as the S3 driver is: the claim names the sha256 of the payload's
 * serialized bytes, so the same payload stored twice is one object.
 */
import { createHash } from 'node:crypto';
import type { Payload } from '@temporalio/common';
import { type StorageDriver, StorageDriverClaim } from '@temporalio/common/lib/converter/extstore.js';
import proto from '@temporalio/proto';
import { referenceKey, type StoredPayload } from '../history/external-storage.ts';

export const MEMORY_DRIVER_NAME = 'longrun.memory';

/** One stored object as the fixture keeps it: its reference and the payload, metadata and data in base64. */
export interface StoredObject {
  driverName: string;
  claimData: Record<string, string>;
  payload: { metadata: Record<string, string>; data: string };
}

export class MemoryStorageDriver implements StorageDriver {
  readonly name = MEMORY_DRIVER_NAME;
  readonly type = 'longrun.memory';
  private readonly objects = new Map<string, Payload>();

  async store(_context: unknown, payloads: Payload[]): Promise<StorageDriverClaim[]> {
    return payloads.map((payload) => {
      const bytes = proto.temporal.api.common.v1.Payload.encode(payload).finish();
      const key = `sha256/${createHash('sha256').update(bytes).digest('hex')}`;
      this.objects.set(key, payload);
      return new StorageDriverClaim({ key });
    });
  }

  async retrieve(_context: unknown, claims: StorageDriverClaim[]): Promise<Payload[]> {
    return claims.map((claim) => {
      const payload = this.objects.get(claim.claimData.key ?? '');
      if (!payload) throw new Error(`${MEMORY_DRIVER_NAME}: no object ${claim.claimData.key}`);
      return payload;
    });
  }

  /** Every object stored, in key order (so a recording's file does not depend on the order of the stores). */
  dump(): StoredObject[] {
    const base64 = (bytes: Uint8Array | null | undefined): string => Buffer.from(bytes ?? new Uint8Array()).toString('base64');
    return [...this.objects.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, payload]) => ({
        driverName: this.name,
        claimData: { key },
        payload: {
          metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([name, value]) => [name, base64(value)])),
          data: base64(payload.data),
        },
      }));
  }
}

/** The stored payloads of a recording's objects, as `CheckContext.storedPayloads` takes them. */
export function storedPayloadsOf(objects: readonly StoredObject[]): Map<string, StoredPayload | 'missing'> {
  return new Map(
    objects.map((object) => [
      referenceKey(object),
      {
        metadata: Object.fromEntries(Object.entries(object.payload.metadata).map(([name, value]) => [name, Buffer.from(value, 'base64')])),
        data: Buffer.from(object.payload.data, 'base64'),
      },
    ]),
  );
}
