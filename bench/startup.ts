/**
 * How long `longrun --help` and `longrun run --help` take to print, from a fresh node each
 * time: from source (a clone: bin/longrun.js, TypeScript through tsx) and compiled (what the
 * npm package's bin runs, dist/; built here when missing). The median of a few starts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median } from './stats.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ENTRIES = { source: 'bin/longrun.js', compiled: 'dist/src/cli/main.js' } as const;
const COMMANDS = [['--help'], ['run', '--help']] as const;

export interface StartupSample {
  mode: keyof typeof ENTRIES;
  command: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
}

export function measureStartup(repetitions: number): StartupSample[] {
  if (!existsSync(`${ROOT}${ENTRIES.compiled}`)) {
    execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: ROOT });
  }
  const samples: StartupSample[] = [];
  for (const [mode, entry] of Object.entries(ENTRIES) as [keyof typeof ENTRIES, string][]) {
    for (const args of COMMANDS) {
      const times = Array.from({ length: repetitions }, () => timeStart(entry, args));
      samples.push({
        mode,
        command: `longrun ${args.join(' ')}`,
        medianMs: median(times),
        minMs: Math.min(...times),
        maxMs: Math.max(...times),
      });
    }
  }
  return samples;
}

function timeStart(entry: string, args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [entry, ...args], { cwd: ROOT, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`startup: node ${entry} ${args.join(' ')} exited ${result.status}`);
  return performance.now() - started;
}
