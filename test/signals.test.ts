/**
 * Each signal at each moment of a small scenario (`smoke`), to longrun's whole process group as a
 * terminal or `docker stop` sends it: during the start (no run yet), while runs are in flight,
 * and while the last runs are judged. Every cell: an exit code that says what happened, a report
 * whole or none, and nothing longrun started left running. (A signal while the report is written
 * waits for it: src/cli/stop-on-signals.test.ts.)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { alive, descendants } from './processes.ts';

/** Each moment by the first stderr line that shows it. */
const MOMENTS = {
  start: /^longrun: smoke: /m,
  runs: /^runs \d+\/\d+ \(\d+ in flight\) · [1-9]\d* turns/m,
  judging: /^runs \d+\/\d+ \(\d+ being judged\)/m,
} as const;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

interface Cell {
  code: number | null;
  report: 'none' | 'partial' | 'whole';
  left: number[];
  stderr: string;
}

async function signalAt(moment: keyof typeof MOMENTS, signal: (typeof SIGNALS)[number]): Promise<Cell | 'missed'> {
  const reports = mkdtempSync(join(tmpdir(), 'longrun-signals-'));
  const bin = fileURLToPath(new URL('../bin/longrun.js', import.meta.url));
  const child = spawn(process.execPath, [bin, 'run', 'smoke', '--report-dir', reports], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let started: number[] = [];
  let sent = false;
  child.stdout.resume();
  child.stderr.on('data', (d: Buffer) => {
    stderr += d;
    if (!sent && MOMENTS[moment].test(stderr)) {
      sent = true;
      started = descendants(child.pid as number);
      process.kill(-(child.pid as number), signal);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (!sent) return 'missed';
  const folder = readdirSync(reports)[0];
  const summaryFile = folder && join(reports, folder, 'summary.json');
  const report =
    summaryFile && existsSync(summaryFile) ? (JSON.parse(readFileSync(summaryFile, 'utf8')).partial ? 'partial' : 'whole') : 'none';
  return { code, report, left: started.filter(alive), stderr };
}

describe('a signal at each moment of a run', () => {
  it.each(SIGNALS.flatMap((signal) => (Object.keys(MOMENTS) as (keyof typeof MOMENTS)[]).map((moment) => [moment, signal] as const)))(
    'during %s, %s: its exit code, its report whole or none, nothing left running',
    async (moment, signal) => {
      const cell = await signalAt(moment, signal);
      // Judging may pass unseen on a fast machine (two small runs judged within one progress tick).
      if (cell === 'missed' && moment === 'judging') return;
      if (cell === 'missed') throw new Error(`the ${moment} moment never showed`);
      expect(cell.left, cell.stderr).toEqual([]);
      expect(cell.stderr).not.toMatch(/internal error|^\s+at /m);
      if (moment === 'start') {
        // Nothing ran: one line, no report.
        expect([cell.code, cell.report], cell.stderr).toEqual([130, 'none']);
      } else if (cell.report === 'partial') {
        expect(cell.code, cell.stderr).toBe(130);
      } else {
        // Every run had ended and was judged: the verdict is the runs' own.
        expect([cell.code, cell.report], cell.stderr).toEqual([0, 'whole']);
      }
    },
    120_000,
  );
});
