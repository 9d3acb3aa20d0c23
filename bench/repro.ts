/**
 * Reproductions as a user runs them: `longrun repro tmprl1103` and `longrun repro history-size`
 * through the `longrun` command, each a process of its own from start to exit (startup, the
 * server, the runs, judging, the report), timed on the wall clock.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const LONGRUN = fileURLToPath(new URL('../bin/longrun.js', import.meta.url));
export const REPRO_INCIDENTS = ['tmprl1103', 'history-size'] as const;

export interface ReproRun {
  incident: (typeof REPRO_INCIDENTS)[number];
  seconds: number;
  /** 0: the incident reproduced on v0 and v1 held (every expectation met). */
  exitCode: number;
}

export interface ReproResult {
  tmprl1103Seconds: number;
  historySizeSeconds: number;
  runs: ReproRun[];
}

function timedRepro(incident: ReproRun['incident'], reportDir: string): Promise<ReproRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LONGRUN, 'repro', incident, '--report-dir', reportDir], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      resolve({ incident, seconds: (performance.now() - started) / 1000, exitCode: code ?? (signal ? 128 : 1) });
    });
  });
}

export async function measureRepro(log: (line: string) => void): Promise<ReproResult> {
  const reportDir = mkdtempSync(join(tmpdir(), 'longrun-bench-repro-'));
  try {
    const runs: ReproRun[] = [];
    for (const incident of REPRO_INCIDENTS) {
      const run = await timedRepro(incident, reportDir);
      log(`repro ${incident}: ${run.seconds.toFixed(1)} s, exit ${run.exitCode}`);
      runs.push(run);
    }
    const seconds = (incident: ReproRun['incident']) => runs.find((r) => r.incident === incident)?.seconds ?? Number.NaN;
    return { tmprl1103Seconds: seconds('tmprl1103'), historySizeSeconds: seconds('history-size'), runs };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}
