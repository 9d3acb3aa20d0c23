/**
 * Workflow bundles kept on disk between processes: bundling a binary takes seconds (webpack over
 * the SDK and the kernel), and every test file, chaos worker process and `longrun` command would
 * otherwise bundle the same sources again. A cached bundle names every source file it was built
 * from (its inline source map lists them) with a hash of each; it is used only while every one
 * of them is unchanged, so an edit to the kernel or an SDK upgrade rebuilds it (the bundler's
 * own package is one of them: a new bundler may bundle the same sources differently).
 * The cache keeps the most recently used bundles only: every clone, worktree and mutation
 * sandbox is a key of its own, and without a bound they piled up by the hundred.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { atomicWriteFile } from '../../shared/atomic-write.ts';
import { cacheDir } from '../../shared/cache.ts';

/** What a bundle was built from: each source file that exists on disk, with the hash of its content. */
type Sources = [path: string, sha256: string][];

interface CachedBundle {
  /** What the bundle was built from: the bundler's entry (a binary's workflows file) and its options. */
  key: string;
  sources: Sources;
  code: string;
}

const INLINE_SOURCE_MAP = /sourceMappingURL=data:application\/json;charset=utf-8;base64,([A-Za-z0-9+/=]+)\s*$/;

function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

function fileHash(path: string): string | undefined {
  try {
    return sha256(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** The files on disk a bundle's code came from, read from its inline source map. */
export function bundleSources(code: string): Sources {
  const map = INLINE_SOURCE_MAP.exec(code)?.[1];
  if (!map) return [];
  const { sources } = JSON.parse(Buffer.from(map, 'base64').toString('utf8')) as { sources?: string[] };
  const found: Sources = [];
  for (const source of sources ?? []) {
    // webpack's own runtime and the bundler's generated entry are not files to watch.
    if (!isAbsolute(source) || !existsSync(source)) continue;
    const hash = fileHash(source);
    if (hash) found.push([source, hash]);
  }
  return found;
}

/** About 2 MB each: every binary of the catalogue in two or three trees. */
export const MAX_CACHED_BUNDLES = 100;

function bundlesDir(): string {
  return cacheDir('workflow-bundles');
}

/** Where the bundle of `key` is kept. */
export function cacheFile(key: string): string {
  return join(bundlesDir(), `${sha256(key).slice(0, 16)}.json`);
}

/** Removes the least recently used bundles beyond MAX_CACHED_BUNDLES (a read marks a bundle used). */
function pruneCache(): void {
  const dir = bundlesDir();
  const entries: { file: string; used: number }[] = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    try {
      entries.push({ file, used: statSync(file).mtimeMs });
    } catch {
      // removed by another process meanwhile
    }
  }
  entries.sort((a, b) => b.used - a.used);
  for (const { file } of entries.slice(MAX_CACHED_BUNDLES)) rmSync(file, { force: true });
}

/** The cached bundle of `key`, if it exists and none of its sources has changed since. */
export function readCachedBundle(key: string): string | undefined {
  let cached: CachedBundle;
  try {
    cached = JSON.parse(readFileSync(cacheFile(key), 'utf8')) as CachedBundle;
  } catch {
    return undefined;
  }
  if (cached.key !== key || cached.sources.length === 0) return undefined;
  if (!cached.sources.every(([path, hash]) => fileHash(path) === hash)) return undefined;
  const now = new Date();
  try {
    utimesSync(cacheFile(key), now, now);
  } catch {
    // pruned by another process meanwhile: the code read is still good
  }
  return cached.code;
}

const BUNDLER_PACKAGE = createRequire(import.meta.url).resolve('@temporalio/worker/package.json');

/** Keeps `code` for the next process; a bundle whose sources cannot be read is not kept. */
export async function writeCachedBundle(key: string, code: string): Promise<void> {
  const bundler = fileHash(BUNDLER_PACKAGE);
  const sources = bundleSources(code);
  if (sources.length === 0 || !bundler) return;
  sources.push([BUNDLER_PACKAGE, bundler]);
  const file = cacheFile(key);
  mkdirSync(join(file, '..'), { recursive: true });
  await atomicWriteFile(file, JSON.stringify({ key, sources, code } satisfies CachedBundle));
  pruneCache();
}
