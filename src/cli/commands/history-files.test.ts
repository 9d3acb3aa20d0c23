import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { historyFileGroups } from './history-files.ts';

const root = mkdtempSync(join(tmpdir(), 'longrun-history-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function touch(...parts: string[]): string {
  const file = join(root, ...parts);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '{}');
  return file;
}

describe('historyFileGroups', () => {
  it("goes into a report's histories/<workflow id>/ folders, each its own group, executions in number order", () => {
    const report = join(root, 'reports', '2026-12-03-long');
    touch('reports', '2026-12-03-long', 'summary.json');
    touch('reports', '2026-12-03-long', 'junit.xml');
    const a = ['execution-1.json', 'execution-2.json', 'execution-10.json'].map((f) =>
      touch('reports', '2026-12-03-long', 'histories', 'wf-a', f),
    );
    const b = touch('reports', '2026-12-03-long', 'histories', 'wf-b', 'execution-1.json.gz');
    touch('reports', '2026-12-03-long', 'histories', '.hidden', 'execution-1.json');
    expect(historyFileGroups([join(report, 'histories')])).toEqual([a, [b]]);
    // The report's own summary.json is not a history.
    expect(historyFileGroups([report])).toEqual([a, [b]]);
  });

  it("keeps the files given together, and a folder's own files before its subfolders'", () => {
    const loose = touch('loose', 'run-1.json');
    const nested = touch('loose', 'more', 'run-2.json');
    const given = touch('given.json');
    expect(historyFileGroups([given, join(root, 'loose')])).toEqual([[given], [loose], [nested]]);
  });

  it('passes on what is named like a history but is no file (a FIFO), for the loader to name it', () => {
    const history = touch('odd', 'run-1.json');
    const fifo = join(root, 'odd', 'run-2.json');
    execFileSync('mkfifo', [fifo]);
    expect(historyFileGroups([join(root, 'odd')])).toEqual([[history, fifo]]);
  });

  it('says so when a folder holds no history at any depth, or a path does not exist', () => {
    mkdirSync(join(root, 'empty', 'deeper'), { recursive: true });
    expect(() => historyFileGroups([join(root, 'empty')])).toThrow('no .json or .json.gz history in this folder or below it');
    expect(() => historyFileGroups([join(root, 'nope')])).toThrow('nope: no such file or folder');
  });
});
