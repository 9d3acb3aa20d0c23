/**
 * The stored payloads of a run's External Storage references, fetched with the workers' own
 * driver as the judging reads the history page by page, so the checks read every offloaded
 * request as if it were inline. An object the store no longer has is recorded as missing
 * (`payload.references-resolve` fails on it); a store that cannot be reached fails the reading.
 */

import { type ExternalStorage, StorageDriverClaim } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { eventReferences, type StoredPayload } from '../checks/history/index.ts';

/** Whether a failure is the store saying it has no such object (S3's 404 NoSuchKey), through any wrapping. */
function notFound(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const status = (cause as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || cause.name === 'NoSuchKey') return true;
  }
  return false;
}

export class StoredPayloadReader {
  /** By `referenceKey`; the checks' loader holds this very map, so what is added before an event is read is seen. */
  readonly payloads = new Map<string, StoredPayload | 'missing'>();

  constructor(private readonly storage: ExternalStorage) {}

  /** Fetches what the events refer to and has not been fetched yet. */
  async read(events: readonly temporal.api.history.v1.IHistoryEvent[]): Promise<void> {
    const wanted = new Map(
      events
        .flatMap((event) => eventReferences(event))
        .filter((reference) => reference.problem === undefined && !this.payloads.has(reference.key))
        .map((reference) => [reference.key, reference]),
    );
    await Promise.all(
      [...wanted.values()].map(async (reference) => {
        // A driver of another name is not this scenario's: its references stay unresolved (not judged).
        const driver = this.storage.getDriver(reference.driverName);
        if (!driver) return;
        try {
          const [payload] = await driver.retrieve({}, [new StorageDriverClaim({ ...reference.claimData })]);
          this.payloads.set(reference.key, payload ?? 'missing');
        } catch (error) {
          if (!notFound(error)) throw error;
          this.payloads.set(reference.key, 'missing');
        }
      }),
    );
  }
}
