import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOB_LIMIT_BYTES, BLOB_WARN_BYTES, HISTORY_SIZE_LIMIT_BYTES } from '../contract/limits.ts';
import { PRODUCTION_DYNAMIC_CONFIG, readDynamicConfigFile } from './dynamic-config.ts';

describe('the production dynamic config', () => {
  it("is the compose cluster's file, with the limits the kernel is built against (limits.ts)", () => {
    expect(PRODUCTION_DYNAMIC_CONFIG).toEqual({
      'limit.blobSize.error': BLOB_LIMIT_BYTES,
      'limit.blobSize.warn': BLOB_WARN_BYTES,
      'limit.historySize.error': HISTORY_SIZE_LIMIT_BYTES,
    });
  });

  it('refuses a value that holds only under constraints, naming the file and key', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'longrun-dc-')), 'dc.yaml');
    writeFileSync(file, 'limit.blobSize.error:\n  - value: 10\n    constraints: { namespace: other }\n');
    expect(() => readDynamicConfigFile(file)).toThrow(
      `${file}: limit.blobSize.error: want one entry with a scalar value and no constraints`,
    );
  });
});
