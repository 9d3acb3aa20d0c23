import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport } from './read-report.ts';

const BASE_DIR = new URL('../../test/compare/base', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'longrun-read-report-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const BENCH = {
  startedAt: '2026-12-03T20:00:00.000Z',
  finishedAt: '2026-12-03T20:05:00.000Z',
  commit: 'abc1234',
  machine: { cpus: 2, memoryBytes: 8e9, node: 'v20.19.0', loadAtStart: [1], loadAtEnd: [1] },
  throughput: [{ size: 'p50', concurrency: 4, runs: 8, turns: 400, requestBytes: 9e6, turnsPerSecond: 21.5, historyMBps: 2 }],
  overhead: { ratio: { ratio: 1.4 }, cpuRatio: { ratio: 1.9 } },
  startup: [{ mode: 'source', command: 'longrun --help', medianMs: 420, minMs: 400, maxMs: 500 }],
};

describe('reading a report to compare', () => {
  it('reads a report folder as its summary.json, and the file itself', () => {
    const folder = readReport(BASE_DIR);
    expect(folder).toMatchObject({ file: join(BASE_DIR, 'summary.json'), kind: 'summary', scenario: 'gate-soak', seed: 1, partial: false });
    expect(folder.about).toBe('2026-12-03 23:35 UTC, 42.9 s, 26 runs, seed 1');
    expect(readReport(join(BASE_DIR, 'summary.json')).figures).toEqual(folder.figures);
  });

  it("reads a bench report's throughput, overhead and start-up", () => {
    const report = readReport(file('bench.json', JSON.stringify(BENCH)));
    expect(report).toMatchObject({ kind: 'bench', scenario: undefined, about: '2026-12-03 20:00 UTC, commit abc1234, 2 cores' });
    expect(report.figures.map((f) => [f.id, f.value])).toEqual([
      ['turns-per-second:p50x4', 21.5],
      ['overhead:time', 1.4],
      ['overhead:cpu', 1.9],
      ['startup-ms:source longrun --help', 420],
    ]);
  });

  it('says in one line, naming the file, what is wrong with what it was given', () => {
    const empty = join(dir, 'empty-folder');
    mkdirSync(empty);
    const cases: [string, string][] = [
      [join(dir, 'nowhere.json'), `${join(dir, 'nowhere.json')}: no such file or folder`],
      [empty, `${empty}: a folder with no summary.json (give a report folder, or the file)`],
      [file('broken.json', '{"scenario": '), `${join(dir, 'broken.json')}: not JSON (`],
      [file('other.json', '{"name": "x"}'), `${join(dir, 'other.json')}: neither a longrun summary.json nor a bench report`],
      [file('half.json', '{"scenario": "smoke", "runs": []}'), `${join(dir, 'half.json')}: not a longrun summary.json: summary.seed:`],
      [file('bench-half.json', '{"machine": {}, "commit": "x"}'), `${join(dir, 'bench-half.json')}: not a bench report: startedAt:`],
    ];
    for (const [path, message] of cases) {
      expect(() => readReport(path)).toThrow(message);
      try {
        readReport(path);
      } catch (error) {
        expect((error as Error).message).not.toContain('\n');
      }
    }
  });
});
