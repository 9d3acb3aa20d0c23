/**
 * External Storage for the kernel's workers: the SDK's own `ExternalStorage` on the data
 * converter, with the official S3 driver, in the store the runner started. A binary that
 * offloads (`offload` in the registry) stores every payload over the threshold there; every
 * other worker of the same scenario only reads what is stored, so a run that moves between
 * binaries (an upgrade) still finds its payloads.
 */
import { ExternalStorage } from '@temporalio/common';
import { S3StorageDriver } from '@temporalio/external-storage-s3';
import { BLOB_LIMIT_BYTES } from '../../contract/limits.ts';
import { type ObjectStore, startObjectStore } from '../../environment/index.ts';
import { driverClientOver, s3Client } from '../../environment/object-store/driver-client.ts';
import { BINARIES, type BinaryId } from '../index.ts';

/** Where the workers' payloads go: an S3 endpoint (the store, or a proxy in front of it) and a bucket. */
export interface OffloadTarget {
  endpoint: string;
  bucket: string;
  /** Payloads of at least this many bytes are stored; see offloadThresholdBytes. */
  thresholdBytes: number;
}

/** The SDK's default threshold, 256 KiB. */
const SDK_THRESHOLD_BYTES = 256 * 1024;

/**
 * The threshold for a scenario's blob limit: the SDK's default (256 KiB, an eighth of Temporal's
 * 2 MiB), scaled down with a scenario that scales the blob limit down, so that an offloading
 * binary stores the same share of its payloads at any scale.
 */
export function offloadThresholdBytes(blobLimitBytes: number = BLOB_LIMIT_BYTES): number {
  return Math.min(SDK_THRESHOLD_BYTES, Math.floor((SDK_THRESHOLD_BYTES * blobLimitBytes) / BLOB_LIMIT_BYTES));
}

/** The driver's name in every reference it writes: a reader must register a driver of the same name. */
export const OFFLOAD_DRIVER_NAME = 'longrun-s3';

/** What a worker does with External Storage: the store's address, and whether it stores or only reads. */
export interface WorkerOffload {
  target: OffloadTarget;
  /** Its binary offloads (every other worker of the scenario only reads what is stored). */
  stores: boolean;
}

/** A worker of `binary` in a scenario whose store is `target`. */
export function workerOffload(binary: BinaryId, target: OffloadTarget): WorkerOffload {
  return { target, stores: BINARIES[binary].offload === true };
}

/** The data converter's ExternalStorage of such a worker. */
export function externalStorageOf({ target, stores }: WorkerOffload): ExternalStorage {
  const driver = new S3StorageDriver({
    client: driverClientOver(s3Client(target.endpoint), target.endpoint, () => undefined),
    bucket: target.bucket,
    driverName: OFFLOAD_DRIVER_NAME,
  });
  return new ExternalStorage({
    drivers: [driver],
    payloadSizeThreshold: target.thresholdBytes,
    ...(stores ? {} : { driverSelector: () => null }),
  });
}

/** A scenario's External Storage: the store, and where its workers store and read (at the store itself). */
export interface OffloadStore {
  store: ObjectStore;
  target: OffloadTarget;
}

function offloads(binaries: readonly string[]): boolean {
  return binaries.some((binary) => binary in BINARIES && BINARIES[binary as BinaryId].offload === true);
}

/** The store when a binary in play offloads (undefined otherwise), with the threshold `blobLimitBytes` scales to. */
export async function startOffloadStore(binaries: readonly string[], blobLimitBytes: number): Promise<OffloadStore | undefined> {
  if (!offloads(binaries)) return undefined;
  const store = await startObjectStore();
  return { store, target: { endpoint: store.endpoint, bucket: store.bucket, thresholdBytes: offloadThresholdBytes(blobLimitBytes) } };
}
