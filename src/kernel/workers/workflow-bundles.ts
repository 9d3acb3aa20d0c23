/**
 * Workflow bundles of the kernel binaries, built once per process and kept on disk between
 * processes (bundle-cache.ts): bundling takes seconds and every worker and replay of the same
 * binary can share one.
 */
import { createRequire } from 'node:module';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { siblingModule } from '../../shared/package-paths.ts';
import type { SourceEdit } from '../binaries/source-patch.ts';
import { BINARIES, type BinaryId, CURRENT_BINARY } from '../index.ts';
import { readCachedBundle, writeCachedBundle } from './bundle-cache.ts';
import { mutantActivatedEntry } from './mutant-activation.ts';
import { patchKernel, writePatchedCopy } from './patched-kernel.ts';

/** The payload converter of the bundles and the activities (payload-converter.ts: the SDK's bytes through the native UTF-8 codec). */
const PAYLOAD_CONVERTER = siblingModule(import.meta.url, './payload-converter.ts');

/**
 * The same converter for a worker's activities (`Worker.create`'s `dataConverter`), where this
 * process can load it: the SDK loads it with `require`, which reads the package's JavaScript, and
 * TypeScript where tsx registered it (a clone's `longrun`, `npm run bench`, the worker processes);
 * under vitest, which does not, the activities keep the SDK's converter (the same bytes, decoded
 * by a JavaScript UTF-8 codec: ~6% of a month's main thread).
 */
export function activityDataConverter(): { payloadConverterPath?: string } {
  try {
    createRequire(import.meta.url)(PAYLOAD_CONVERTER);
    return { payloadConverterPath: PAYLOAD_CONVERTER };
  } catch {
    return {};
  }
}

const bundles = new Map<string, Promise<WorkflowBundle>>();

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

export function workflowBundle(binary: BinaryId): Promise<WorkflowBundle> {
  const { workflowsPath, patch, base } = BINARIES[binary];
  if (!patch) return bundleOf(workflowsPath);
  return once(`control ${binary}`, () => buildPatchedBundle(binary, base ?? CURRENT_BINARY, patch));
}

/** The bundle of any workflows file (the benchmark's baseline and ceiling workflows too), built once. */
export function bundleOf(workflowsPath: string): Promise<WorkflowBundle> {
  return once(workflowsPath, () => buildBundle(workflowsPath, workflowsPath));
}

function once(key: string, build: () => Promise<WorkflowBundle>): Promise<WorkflowBundle> {
  let bundle = bundles.get(key);
  if (!bundle) {
    bundle = build();
    bundles.set(key, bundle);
  }
  return bundle;
}

/**
 * A broken control's bundle: its base release's entry in a copy of the kernel with the control's
 * edits applied. Cached under the patched sources' hash: the copy is gone once bundled, and
 * an edit to the kernel or to the control's patch gives another hash.
 */
async function buildPatchedBundle(binary: BinaryId, base: BinaryId, patch: readonly SourceEdit[]): Promise<WorkflowBundle> {
  const kernel = patchKernel(binary, patch);
  const copy = writePatchedCopy(kernel);
  return buildBundle(copy.entry(base), `${BINARIES[base].workflowsPath} patched as ${binary} (${kernel.hash})`, copy.dispose);
}

/**
 * Bundles `workflowsPath`, or serves it from the cache under `cacheName` (what, beside the files
 * the bundle lists, names its sources); `disposeSource` removes a patched copy once bundled.
 */
async function buildBundle(workflowsPath: string, cacheName: string, disposeSource = () => {}): Promise<WorkflowBundle> {
  const entry = mutantActivatedEntry(workflowsPath);
  // Cached with no mutant switched on (a mutant's wrapper holds a placeholder): each process activates its own.
  // The converter is part of what a bundle was built with: a bundle from before it is not served.
  const cacheKey = `${cacheName}${entry.workflowsPath === workflowsPath ? '' : ' for a mutant'} with ${PAYLOAD_CONVERTER}`;
  let code: string;
  try {
    const cached = readCachedBundle(cacheKey);
    if (cached) return { code: entry.activate(cached) };
    ({ code } = await bundleWorkflowCode({
      workflowsPath: entry.workflowsPath,
      payloadConverterPath: PAYLOAD_CONVERTER,
      logger: silent,
    }));
  } finally {
    entry.dispose();
    disposeSource();
  }
  // Once the temporary files are gone, so that the bundle lists only the files that stay: a patched kernel is in its cache name.
  await writeCachedBundle(cacheKey, code).catch(() => {});
  return { code: entry.activate(code) };
}
