/**
 * The stored payloads of a run's External Storage references, fetched with the workers' own
 * driver as the judging reads the history page by page, so the checks read every offloaded
 * request as if it were inline; checked again once the run has ended, so an object deleted after
 * it was read counts as missing. An object the store does not have is recorded as missing
 * (`payload.references-resolve` fails on it); a store that cannot be reached fails the judging.
 */
import { StorageDriverClaim } from '@temporalio/common';
import type { S3StorageDriverClient } from '@temporalio/external-storage-s3';
import type { temporal } from '@temporalio/proto';
import { eventReferences, type StoredPayload } from '../checks/history/index.ts';
import { driverClientOver, s3Client } from '../environment/object-store/driver-client.ts';
import { externalStorageOf, type OffloadTarget } from '../kernel/workers/offload.ts';

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
  /** Where each fetched payload is, to check it is still there. */
  private readonly places = new Map<string, { bucket: string; key: string }>();

  constructor(
    private readonly storage: ReturnType<typeof externalStorageOf>,
    private readonly client: S3StorageDriverClient,
  ) {}

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
        const { bucket, key } = reference.claimData;
        if (bucket && key) this.places.set(reference.key, { bucket, key });
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

  /** Marks missing what the store no longer has (an object deleted or expired since it was read). */
  async recheck(): Promise<void> {
    await Promise.all(
      [...this.places].map(async ([referenceKey, { bucket, key }]) => {
        if (this.payloads.get(referenceKey) === 'missing') return;
        if (!(await this.client.objectExists(bucket, key))) this.payloads.set(referenceKey, 'missing');
      }),
    );
  }
}

/** One reader per run being judged, so what a run's judging fetched goes with it. */
export class RunStores {
  private readonly readers = new Map<string, StoredPayloadReader>();
  private readonly storage: ReturnType<typeof externalStorageOf>;
  private readonly client: S3StorageDriverClient;

  constructor(target: OffloadTarget) {
    this.storage = externalStorageOf({ target, stores: false });
    this.client = driverClientOver(s3Client(target.endpoint), target.endpoint, () => undefined);
  }

  readerFor(workflowId: string): StoredPayloadReader {
    let reader = this.readers.get(workflowId);
    if (!reader) {
      reader = new StoredPayloadReader(this.storage, this.client);
      this.readers.set(workflowId, reader);
    }
    return reader;
  }

  release(workflowId: string): void {
    this.readers.delete(workflowId);
  }
}
