/**
 * The Chromium the browser test drives: `CHROMIUM_PATH` when set, else the headless build that
 * the `@sparticuz/chromium` devDependency ships inside its npm package (brotli-compressed), so
 * `npm install` is all a machine needs: no system package, no download at install time.
 */
import { createReadStream, createWriteStream, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { cacheDir, isExecutableFile } from '../../shared/cache.ts';

export interface ChromiumBinary {
  path: string;
  source: 'env' | 'npm';
}

/**
 * The package's root folder: up from the entry Node resolves (its depth moves between versions:
 * `build/index.js`, `build/cjs/index.cjs`) to the folder whose package.json names the package.
 */
export function chromiumPackageRoot(): string {
  let folder = dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium'));
  while (!isPackageFolder(folder)) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('@sparticuz/chromium: no package.json above its entry');
    folder = parent;
  }
  return folder;
}

function isPackageFolder(folder: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string }).name === '@sparticuz/chromium';
  } catch {
    return false;
  }
}

/**
 * Unpacks the package's browser once per package version into longrun's cache (about 3 s,
 * 200 MB), atomically: another process starting at the same moment never runs half a binary.
 */
async function npmChromium(): Promise<string> {
  const root = chromiumPackageRoot();
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const target = join(cacheDir('chromium'), version, 'chromium');
  if (isExecutableFile(target)) return target;
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  try {
    await pipeline(
      createReadStream(join(root, 'bin', 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(partial, { mode: 0o755 }),
    );
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return target;
}

export async function resolveChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumBinary> {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!isExecutableFile(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} is not an executable file`);
    return { path: fromEnv, source: 'env' };
  }
  return { path: await npmChromium(), source: 'npm' };
}
