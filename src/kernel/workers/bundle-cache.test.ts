import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleSources, cacheFile, MAX_CACHED_BUNDLES, readCachedBundle, writeCachedBundle } from './bundle-cache.ts';

/** Code ending in an inline source map that names `sources`, the way the SDK's bundler writes it. */
function codeFrom(sources: string[], body = 'var x = 1;'): string {
  const map = Buffer.from(JSON.stringify({ version: 3, sources, mappings: '' })).toString('base64');
  return `${body}\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${map}`;
}

describe('the workflow bundle cache', () => {
  let dir: string;
  let previous: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'longrun-bundle-cache-'));
    previous = process.env.LONGRUN_CACHE_DIR;
    process.env.LONGRUN_CACHE_DIR = join(dir, 'cache');
  });
  afterEach(() => {
    if (previous === undefined) delete process.env.LONGRUN_CACHE_DIR;
    else process.env.LONGRUN_CACHE_DIR = previous;
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the source files on disk, not webpack runtime modules or missing files', () => {
    const source = join(dir, 'workflow.ts');
    writeFileSync(source, 'export const a = 1;');
    const sources = bundleSources(codeFrom([source, 'webpack/bootstrap', join(dir, 'gone.ts')]));
    expect(sources.map(([path]) => path)).toEqual([source]);
  });

  it('gives back a bundle while its sources are unchanged, and none once one changes', async () => {
    const entry = join(dir, 'v1.ts');
    const source = join(dir, 'agent-run.ts');
    writeFileSync(entry, 'export * from "./agent-run";');
    writeFileSync(source, 'export const turns = 1;');
    const code = codeFrom([entry, source]);
    await writeCachedBundle(entry, code);
    expect(readCachedBundle(entry)).toBe(code);
    writeFileSync(source, 'export const turns = 2;');
    expect(readCachedBundle(entry)).toBeUndefined();
  });

  it('keeps nothing for a bundle without a source map, and reads nothing for another entry', async () => {
    const entry = join(dir, 'v0.ts');
    writeFileSync(entry, 'export {};');
    await writeCachedBundle(entry, 'var x = 1;');
    expect(readCachedBundle(entry)).toBeUndefined();
    await writeCachedBundle(entry, codeFrom([entry]));
    expect(readCachedBundle(join(dir, 'v2.ts'))).toBeUndefined();
  });

  it('keeps the most recently used bundles only, a read counting as a use', async () => {
    const bundles = join(dir, 'cache', 'workflow-bundles');
    const entries = Array.from({ length: MAX_CACHED_BUNDLES + 2 }, (_, i) => join(dir, `entry-${i}.ts`));
    for (const [i, entry] of entries.entries()) {
      writeFileSync(entry, `export const n = ${i};`);
      await writeCachedBundle(entry, codeFrom([entry]));
      // Written a minute apart, whatever the file system clock's resolution.
      utimesSync(cacheFile(entry), 60 * (i + 1), 60 * (i + 1));
      if (i === MAX_CACHED_BUNDLES - 1) expect(readCachedBundle(entries[0] as string)).toBeDefined();
    }
    expect(readdirSync(bundles)).toHaveLength(MAX_CACHED_BUNDLES);
    expect(readCachedBundle(entries[0] as string), 'read just before the last two writes').toBeDefined();
    expect(readCachedBundle(entries[1] as string)).toBeUndefined();
    expect(readCachedBundle(entries[2] as string)).toBeUndefined();
    expect(readCachedBundle(entries[3] as string)).toBeDefined();
  });
});
