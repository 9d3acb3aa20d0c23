/**
 * How long `longrun --help` and `longrun run --help` take to print, from a fresh node each
 * time: from source (a clone: bin/longrun.js, TypeScript through tsx) and compiled (what the
 * npm package's bin runs, dist/, built here from the current sources). The median of a few starts.
 */
import { spawnSync } from 'node:child_process';
import { buildCompiled, COMPILED_MAIN, ROOT } from './compiled.ts';
import { median } from './stats.ts';

export interface StartupSample {
  /** node: a bare `node -e 0`, the floor; source: bin/longrun.js in a clone; compiled: dist/. */
  mode: 'node' | 'source' | 'compiled';
  command: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
}

const STARTS: { mode: StartupSample['mode']; command: string; argv: string[] }[] = [
  { mode: 'node', command: 'node -e 0', argv: ['-e', '0'] },
  ...(['source', 'compiled'] as const).flatMap((mode) =>
    [['--help'], ['run', '--help']].map((args) => ({
      mode,
      command: `longrun ${args.join(' ')}`,
      argv: [mode === 'source' ? 'bin/longrun.js' : COMPILED_MAIN, ...args],
    })),
  ),
];

export function measureStartup(repetitions: number): StartupSample[] {
  buildCompiled();
  return STARTS.map(({ mode, command, argv }) => {
    const times = Array.from({ length: repetitions }, () => timeStart(argv));
    return { mode, command, medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times) };
  });
}

function timeStart(argv: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, argv, { cwd: ROOT, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`startup: node ${argv.join(' ')} exited ${result.status}`);
  return performance.now() - started;
}
