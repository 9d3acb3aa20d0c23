// StrykerJS's test command (stryker.config.json): detect.ts compiled once, then run as plain
// JavaScript. Through tsx every mutant's process paid 4-26 s to load the sources (tsx's loader
// hooks on every module) before the suite began; compiled, the load is 2-4 s. Stryker's sandbox
// holds the same instrumented sources for every mutant (all mutants at once, switched on by
// __STRYKER_ACTIVE_MUTANT__), so the first process (the dry run) compiles and the others reuse it.
// The build is keyed on a hash of every source file: an edit, or another sandbox, compiles anew.
// Pure JavaScript itself: it runs before anything can compile TypeScript.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** At the package's depth below the root, as dist/ is: the compiled code finds scenarios/, contract/ and deploy/ as dist/'s does. */
const BUILD = join(ROOT, '.detect-build');
const STAMP = join(BUILD, 'sources.sha256');
const SOURCE_FOLDERS = ['src', 'mocks', 'tools'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** What the build is made from: every .ts and .json file of the compiled folders, and the compiler's configuration. */
function sourcesHash() {
  const hash = createHash('sha256');
  const add = (path) => hash.update(path).update('\0').update(readFileSync(path)).update('\0');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
      } else if (/\.(ts|json)$/.test(entry.name)) add(path);
    }
  };
  for (const folder of SOURCE_FOLDERS) walk(join(ROOT, folder));
  for (const config of CONFIGS) add(join(ROOT, config));
  return hash.digest('hex');
}

const wanted = sourcesHash();
if (!existsSync(STAMP) || readFileSync(STAMP, 'utf8') !== wanted) {
  const started = Date.now();
  // Into a folder of its own, then moved in whole: a build that fails half-way is never used.
  const next = `${BUILD}-${process.pid}`;
  // --noCheck: emit only. The instrumented sources do not type-check (Stryker marks them @ts-nocheck), and `npx tsc --noEmit` checks the real ones.
  const tsc = spawnSync(
    process.execPath,
    [
      createRequire(import.meta.url).resolve('typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--noCheck',
      '--declaration',
      'false',
      '--outDir',
      next,
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (tsc.status !== 0) {
    rmSync(next, { recursive: true, force: true });
    console.error(`mutation: compiling the detection suite failed (tsc exit ${tsc.status ?? tsc.signal})`);
    process.exit(2);
  }
  writeFileSync(join(next, 'sources.sha256'), wanted);
  rmSync(BUILD, { recursive: true, force: true });
  renameSync(next, BUILD);
  console.log(`detection suite compiled in ${Date.now() - started} ms`);
}
await import(new URL('src/mutation/detect.js', `file://${BUILD}/`).href);
