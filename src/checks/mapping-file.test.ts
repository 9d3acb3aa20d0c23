import { describe, expect, it } from 'vitest';
import { DEFAULT_KERNEL_MAPPING } from './mapping.ts';
import { parseKernelMapping } from './mapping-file.ts';

describe('parseKernelMapping', () => {
  it("lays a partial mapping over our kernel's, key by key", () => {
    const mapping = parseKernelMapping(
      { gateMarker: 'Version', activities: { runTool: 'tool.run' }, paths: { journalHashes: null }, limits: { tailMaxBytes: 1000 } },
      'go.json',
    );
    expect(mapping.gateMarker).toBe('Version');
    expect(mapping.patchId).toBe(DEFAULT_KERNEL_MAPPING.patchId);
    expect(mapping.activities).toEqual({ ...DEFAULT_KERNEL_MAPPING.activities, runTool: 'tool.run' });
    expect(mapping.paths).toEqual({ ...DEFAULT_KERNEL_MAPPING.paths, journalHashes: null });
    expect(mapping.limits).toEqual({ ...DEFAULT_KERNEL_MAPPING.limits, tailMaxBytes: 1000 });
    expect(parseKernelMapping({}, 'empty.json')).toEqual(DEFAULT_KERNEL_MAPPING);
  });

  it('names the file and the field of bad input in one line', () => {
    expect(() => parseKernelMapping({ gateMarker: 'GetVersion' }, 'go.json')).toThrow(/^go\.json: gateMarker: /);
    expect(() => parseKernelMapping({ paths: { turn: { arg: -1, path: [] } } }, 'go.json')).toThrow(/^go\.json: paths\.turn\.arg: /);
    expect(() => parseKernelMapping({ activities: { callModell: 'x' } }, 'go.json')).toThrow(
      'go.json: activities.callModell: is not a field of a kernel mapping',
    );
    expect(() => parseKernelMapping([], 'go.json')).toThrow(/^go\.json: \(mapping\): /);
  });
});
