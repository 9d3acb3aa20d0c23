/**
 * The copy of the kernel a broken control is bundled from: the kernel's folder with the
 * control's edits applied (source-patch.ts), in a temporary folder laid out as the package is,
 * so that its relative imports still reach `src/contract/` and its packages (the rest of the
 * package and node_modules are links to the real ones).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyEdits, compiledEdit, type KernelSources, type SourceEdit } from '../binaries/source-patch.ts';

/** The kernel's folder: `src/kernel` from source, `dist/src/kernel` compiled. */
const KERNEL_DIR = fileURLToPath(new URL('..', import.meta.url));
const COMPILED = extname(fileURLToPath(import.meta.url)) === '.js';

/** Tests and their helpers, and tools' scratch folders (Stryker's activation wrappers), are not part of a binary. */
function isKernelSource(name: string, isDirectory: boolean): boolean {
  if (name.startsWith('.')) return false;
  return isDirectory ? name !== 'testing' : !/\.test\.[jt]s$/.test(name);
}

/** Every file of the kernel's folder (`dir`), by its path under it. */
export function readKernelSources(dir: string = KERNEL_DIR): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!isKernelSource(entry.name, entry.isDirectory())) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else sources.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return sources;
}

export interface PatchedKernel {
  sources: KernelSources;
  /** A hash of every patched file: the control's bundle is cached under it. */
  hash: string;
}

/** The kernel's sources with `control`'s edits applied, in the form this process runs (TypeScript or the package's JavaScript). */
export function patchKernel(control: string, edits: readonly SourceEdit[], sources: KernelSources = readKernelSources()): PatchedKernel {
  const patched = applyEdits(control, sources, COMPILED ? edits.map(compiledEdit) : edits);
  const hash = createHash('sha256');
  for (const [file, text] of [...patched].sort(([a], [b]) => a.localeCompare(b))) hash.update(file).update('\0').update(text).update('\0');
  return { sources: patched, hash: hash.digest('hex') };
}

export interface PatchedCopy {
  /** The copy's entry of `binary` (`binaries/<binary>.ts`). */
  entry(binary: string): string;
  /** The copy of a file of the kernel (`context/rebuild.ts`), under the name this process runs it by. */
  file(path: string): string;
  dispose(): void;
}

/** The folder node_modules whose packages the kernel imports (`@temporalio/workflow`). */
function nodeModulesDir(): string {
  const workflowPackage = createRequire(import.meta.url).resolve('@temporalio/workflow/package.json');
  return dirname(dirname(dirname(workflowPackage)));
}

/** Writes `kernel` to a temporary folder beside links to the rest of the package. */
export function writePatchedCopy(kernel: PatchedKernel): PatchedCopy {
  const root = mkdtempSync(join(tmpdir(), 'longrun-control-'));
  const sourceRoot = dirname(KERNEL_DIR);
  const copyRoot = join(root, basename(sourceRoot));
  const kernelCopy = join(copyRoot, basename(KERNEL_DIR));
  mkdirSync(kernelCopy, { recursive: true });
  for (const name of readdirSync(sourceRoot)) {
    if (name !== basename(KERNEL_DIR)) symlinkSync(join(sourceRoot, name), join(copyRoot, name));
  }
  symlinkSync(nodeModulesDir(), join(root, 'node_modules'));
  for (const [file, text] of kernel.sources) {
    mkdirSync(dirname(join(kernelCopy, file)), { recursive: true });
    writeFileSync(join(kernelCopy, file), text);
  }
  return {
    entry: (binary) => join(kernelCopy, 'binaries', `${binary}${COMPILED ? '.js' : '.ts'}`),
    file: (path) => join(kernelCopy, COMPILED ? path.replace(/\.ts$/, '.js') : path),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
