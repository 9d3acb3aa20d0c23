/**
 * The compiled form of this tree, what the npm package's bin runs: dist/, built from the current
 * sources once per benchmark process (a dist/ left from an older checkout would measure old code).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The CLI's entry in dist/, relative to ROOT. */
export const COMPILED_MAIN = 'dist/src/cli/main.js';

let built = false;

export function buildCompiled(): void {
  if (built) return;
  execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: ROOT });
  built = true;
}
