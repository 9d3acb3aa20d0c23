// Runs one of longrun's entry modules. A clone has the TypeScript sources and runs them through
// tsx (a devDependency), so what you edit is what runs; the npm package ships them compiled to
// dist/ (built by `npm pack`'s prepack) and needs no TypeScript at all.
import { existsSync } from 'node:fs';

const ROOT = new URL('../', import.meta.url);

/** `module` is a path from the package's root without extension: `src/cli/main`. */
export async function runEntry(module) {
  const source = new URL(`${module}.ts`, ROOT);
  if (existsSync(source)) {
    const { register } = await import('tsx/esm/api');
    register();
    // And for require(): the SDK requires the activities' payload converter by its path.
    (await import('tsx/cjs/api')).register();
    await import(source.href);
  } else {
    await import(new URL(`dist/${module}.js`, ROOT).href);
  }
}
