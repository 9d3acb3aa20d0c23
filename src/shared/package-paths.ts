/**
 * Where longrun's own files are, whether it runs from source (a clone: `src/x.ts` through tsx)
 * or compiled (the npm package: `dist/src/x.js`). The files read at run time (scenarios/,
 * contract/, deploy/, tools/, examples/) sit at the package's root in both; a module started in
 * a child process is the one beside its parent, `.ts` through tsx's loader or `.js` as it is.
 */
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const COMPILED = import.meta.url.endsWith('.js');

/** The package's root folder: two levels above this file in source, three in dist/. */
export const PACKAGE_ROOT = fileURLToPath(new URL(COMPILED ? '../../../' : '../../', import.meta.url));

/** A path inside the package: `packagePath('scenarios', 'smoke.yaml')`. */
export function packagePath(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}

/** The module `relative` (written `./name.ts`) beside `parentUrl`, with the extension the parent runs with. */
export function siblingModule(parentUrl: string, relative: string): string {
  return fileURLToPath(new URL(relative.replace(/\.ts$/, extname(new URL(parentUrl).pathname)), parentUrl));
}

/** node's arguments to run `entry`: TypeScript through tsx (a devDependency, so only from source). */
export function nodeArgsFor(entry: string): string[] {
  return entry.endsWith('.ts') ? ['--import', createRequire(import.meta.url).resolve('tsx'), entry] : [entry];
}
