/**
 * Reproductions as a user runs them: `longrun repro tmprl1103` and `longrun repro history-size`
 * through the `longrun` command, each a process of its own from start to exit (startup, the
 * server, the runs, judging, the report), timed on the wall clock. Compiled (what the npm
 * package runs, the stable keys) and from source (bin/longrun.js in a clone, TypeScript through
 * tsx, whose module loading costs seconds of CPU), one after the other for each incident, after
 * an uncounted warm-up of each form that fills the workflow bundle cache as a first command does.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildCompiled, COMPILED_MAIN, ROOT } from './compiled.ts';

export const REPRO_INCIDENTS = ['tmprl1103', 'history-size'] as const;
export const REPRO_FORMS = ['compiled', 'source'] as const;
const ENTRY: Record<ReproForm, string> = { compiled: join(ROOT, COMPILED_MAIN), source: join(ROOT, 'bin/longrun.js') };

export type ReproForm = (typeof REPRO_FORMS)[number];

export interface ReproRun {
  incident: (typeof REPRO_INCIDENTS)[number];
  form: ReproForm;
  seconds: number;
  /** 0: the incident reproduced on v0 and v1 held (every expectation met). */
  exitCode: number;
}

export interface ReproResult {
  /** The compiled `longrun` (the npm package's). */
  tmprl1103Seconds: number;
  historySizeSeconds: number;
  /** The same from source, in a clone. */
  source: { tmprl1103Seconds: number; historySizeSeconds: number };
  runs: ReproRun[];
}

function timedRepro(incident: ReproRun['incident'], form: ReproForm, reportDir: string): Promise<ReproRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ENTRY[form], 'repro', incident, '--report-dir', reportDir], { cwd: ROOT, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      resolve({ incident, form, seconds: (performance.now() - started) / 1000, exitCode: code ?? (signal ? 128 : 1) });
    });
  });
}

export async function measureRepro(log: (line: string) => void): Promise<ReproResult> {
  const reportDir = mkdtempSync(join(tmpdir(), 'longrun-bench-repro-'));
  try {
    buildCompiled();
    for (const form of REPRO_FORMS) await timedRepro('tmprl1103', form, reportDir);
    const runs: ReproRun[] = [];
    for (const incident of REPRO_INCIDENTS) {
      for (const form of REPRO_FORMS) {
        const run = await timedRepro(incident, form, reportDir);
        log(`repro ${incident} (${form}): ${run.seconds.toFixed(1)} s, exit ${run.exitCode}`);
        runs.push(run);
      }
    }
    const seconds = (incident: ReproRun['incident'], form: ReproForm) =>
      runs.find((r) => r.incident === incident && r.form === form)?.seconds ?? Number.NaN;
    return {
      tmprl1103Seconds: seconds('tmprl1103', 'compiled'),
      historySizeSeconds: seconds('history-size', 'compiled'),
      source: { tmprl1103Seconds: seconds('tmprl1103', 'source'), historySizeSeconds: seconds('history-size', 'source') },
      runs,
    };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}
