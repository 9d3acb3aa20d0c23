import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSummary } from '../result/index.ts';
import { standardFixture } from '../result/testing/index.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { writeReport } from './write-report.ts';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'longrun-report-'));
}

describe('writeReport', () => {
  it('writes summary.json, junit.xml, report.html and the given histories, nothing else', async () => {
    const summary = standardFixture();
    const dir = join(scratch(), 'out');
    const returned = await writeReport(summary, {
      dir,
      histories: [{ path: 'histories/v0-0001/1.json', content: '{"events":[]}' }],
    });
    expect(returned).toBe(dir);
    expect(readdirSync(dir).sort()).toEqual(['histories', 'junit.xml', 'report.html', 'summary.json']);
    expect(parseSummary(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))).toEqual(summary);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toBe(renderJunit(summary));
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe(renderHtml(summary));
    expect(readFileSync(join(dir, 'histories/v0-0001/1.json'), 'utf8')).toBe('{"events":[]}');
  });

  it('defaults to <root>/<time>-<scenario> from the summary', async () => {
    const root = scratch();
    const dir = await writeReport(standardFixture(), { root });
    expect(dir).toBe(join(root, '2026-11-30T10-41-07Z-fixture'));
    expect(existsSync(join(dir, 'summary.json'))).toBe(true);
  });

  it('writes summary.json last: when an earlier file fails there is no summary.json', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'report.html'));
    await expect(writeReport(standardFixture(), { dir })).rejects.toThrow();
    expect(existsSync(join(dir, 'junit.xml'))).toBe(true);
    expect(existsSync(join(dir, 'summary.json'))).toBe(false);
  });

  it('checks the summary before writing anything', async () => {
    const dir = join(scratch(), 'never');
    const bad = { ...standardFixture(), seed: 'forty-two' } as unknown as ReturnType<typeof standardFixture>;
    await expect(writeReport(bad, { dir })).rejects.toThrow(/^summary\.seed: /);
    expect(existsSync(dir)).toBe(false);
  });

  it('keeps saved files inside the folder', async () => {
    const dir = join(scratch(), 'inside');
    await expect(writeReport(standardFixture(), { dir, histories: [{ path: '../escape.json', content: 'x' }] })).rejects.toThrow(
      'writeReport: histories[0].path "../escape.json" must be a file inside the report folder',
    );
    expect(existsSync(dir)).toBe(false);
  });
});
