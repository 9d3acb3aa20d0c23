import { describe, expect, it } from 'vitest';
import { BLOB_LIMIT_BYTES, COMPACTION_TRIGGER_BYTES, CONTINUE_AS_NEW_BYTES } from '../contract/limits.ts';
import { formatBytes, formatCount, formatDuration, plural } from './format.ts';

describe('formatBytes', () => {
  it('states the spec limits exactly', () => {
    expect(formatBytes(BLOB_LIMIT_BYTES)).toBe('2 MiB');
    expect(formatBytes(CONTINUE_AS_NEW_BYTES)).toBe('128 MiB');
    expect(formatBytes(COMPACTION_TRIGGER_BYTES)).toBe('1.2 MB');
    expect(formatBytes(256 * 1024)).toBe('256 KiB');
  });

  it('uses SI units with three significant digits otherwise', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1_234_567)).toBe('1.23 MB');
    expect(formatBytes(45_600)).toBe('45.6 kB');
    expect(formatBytes(999_999)).toBe('1 MB');
    expect(formatBytes(3_456_789_012)).toBe('3.46 GB');
    expect(formatBytes(-1_500_000)).toBe('-1.5 MB');
  });
});

describe('formatCount', () => {
  it('groups thousands', () => {
    expect(formatCount(1_200_000)).toBe('1,200,000');
    expect(formatCount(-1234.5)).toBe('-1,234.5');
    expect(formatCount(12)).toBe('12');
  });
});

describe('formatDuration', () => {
  it('picks the unit by size', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(245_000)).toBe('4 min 05 s');
    expect(formatDuration(7_380_000)).toBe('2 h 03 min');
  });
});

describe('plural', () => {
  it('agrees with the count', () => {
    expect(plural(1, 'run')).toBe('1 run');
    expect(plural(1200, 'run')).toBe('1,200 runs');
    expect(plural(2, 'ContinueAsNew', 'ContinueAsNews')).toBe('2 ContinueAsNews');
  });
});
