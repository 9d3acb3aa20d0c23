import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportDirFor, reportTimestamp, scenarioSlug } from './report-dir.ts';

describe('reportDirFor', () => {
  const date = new Date('2026-11-30T10:41:07.123Z');

  it('is <root>/<time>-<scenario>, the time without colons or milliseconds', () => {
    expect(reportTimestamp(date)).toBe('2026-11-30T10-41-07Z');
    expect(reportDirFor('smoke', date)).toBe(join('reports', '2026-11-30T10-41-07Z-smoke'));
    expect(reportDirFor('smoke', date, '/tmp/out')).toBe(join('/tmp/out', '2026-11-30T10-41-07Z-smoke'));
  });

  it('makes any scenario name one safe path segment', () => {
    expect(scenarioSlug('my scenario/../x: v2')).toBe('my-scenario-x-v2');
    expect(scenarioSlug('../..')).toBe('scenario');
    expect(scenarioSlug('tmprl1103.v0_ok')).toBe('tmprl1103.v0_ok');
    expect(scenarioSlug('x'.repeat(200))).toHaveLength(80);
  });

  it('rejects an invalid date in one line', () => {
    expect(() => reportDirFor('smoke', new Date('nope'))).toThrow('reportDirFor: date is not a valid Date');
  });
});
