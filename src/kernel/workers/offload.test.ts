import { describe, expect, it } from 'vitest';
import { BLOB_LIMIT_BYTES } from '../../contract/limits.ts';
import { externalStorageOf, offloadThresholdBytes, workerOffload } from './offload.ts';

describe('offloadThresholdBytes', () => {
  it("is the SDK's 256 KiB at Temporal's blob limit, scaled down with a smaller one and never above it", () => {
    expect(offloadThresholdBytes()).toBe(256 * 1024);
    expect(offloadThresholdBytes(BLOB_LIMIT_BYTES)).toBe(256 * 1024);
    expect(offloadThresholdBytes(256 * 1024)).toBe(32 * 1024);
    expect(offloadThresholdBytes(8 * BLOB_LIMIT_BYTES)).toBe(256 * 1024);
  });
});

describe('externalStorageOf', () => {
  const target = { endpoint: 'http://127.0.0.1:1', bucket: 'longrun', thresholdBytes: 1024 };

  it('stores with an offloading binary, and only reads with any other', () => {
    const payload = { metadata: {}, data: new Uint8Array(4096) };
    const storing = externalStorageOf(workerOffload('v1-offload', target));
    const reading = externalStorageOf(workerOffload('v1', target));
    expect(storing.driverSelector({}, payload)?.name).toBe('longrun-s3');
    expect(reading.driverSelector({}, payload)).toBeNull();
    // Both read a reference their store's driver wrote.
    expect(reading.getDriver('longrun-s3')).not.toBeNull();
    expect(storing.payloadSizeThreshold).toBe(1024);
  });
});
