import { describe, expect, it } from 'vitest';
import { parseSummary } from './summary.ts';
import { standardFixture } from './testing/index.ts';

describe('parseSummary', () => {
  it('accepts a summary and its JSON round trip', () => {
    const summary = standardFixture();
    expect(parseSummary(JSON.parse(JSON.stringify(summary)))).toEqual(summary);
  });

  it('names the first bad field in one line', () => {
    const summary = JSON.parse(JSON.stringify(standardFixture()));
    summary.runs[1].turns[3].requestBytes = 'big';
    expect(() => parseSummary(summary)).toThrow(/^summary\.runs\[1\]\.turns\[3\]\.requestBytes: .*number.*$/);
  });

  it('rejects an unknown invariant id and a missing limit', () => {
    const badId = JSON.parse(JSON.stringify(standardFixture()));
    badId.runs[0].invariants[0].id = 'payload.ceilin';
    expect(() => parseSummary(badId)).toThrow(/^summary\.runs\[0\]\.invariants\[0\]\.id: /);
    const noLimit = JSON.parse(JSON.stringify(standardFixture()));
    delete noLimit.limits.blobLimitBytes;
    expect(() => parseSummary(noLimit)).toThrow(/^summary\.limits\.blobLimitBytes: /);
  });

  it('rejects something that is not a summary at all', () => {
    expect(() => parseSummary(null)).toThrow(/^summary: /);
  });
});
