/**
 * Workflow bundles of the kernel binaries, built once per process and kept on disk between
 * processes (bundle-cache.ts): bundling takes seconds and every worker and replay of the same
 * binary can share one.
 */
import { createRequire } from 'node:module';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { siblingModule } from '../../shared/package-paths.ts';
import { BINARIES, type BinaryId } from '../index.ts';
import { readCachedBundle, writeCachedBundle } from './bundle-cache.ts';
import { mutantActivatedEntry } from './mutant-activation.ts';

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
  return bundleOf(BINARIES[binary].workflowsPath);
}

/** The bundle of any workflows file (the benchmark's baseline and ceiling workflows too), built once. */
export function bundleOf(workflowsPath: string): Promise<WorkflowBundle> {
  let bundle = bundles.get(workflowsPath);
  if (!bundle) {
    bundle = buildBundle(workflowsPath);
    bundles.set(workflowsPath, bundle);
  }
  return bundle;
}

async function buildBundle(workflowsPath: string): Promise<WorkflowBundle> {
  const entry = mutantActivatedEntry(workflowsPath);
  try {
    // Cached with no mutant switched on (a mutant's wrapper holds a placeholder): each process activates its own.
    // The converter is part of what a bundle was built with: a bundle from before it is not served.
    const cacheKey = `${entry.workflowsPath} with ${PAYLOAD_CONVERTER}`;
    const cached = readCachedBundle(cacheKey);
    if (cached) return { code: entry.activate(cached) };
    const { code } = await bundleWorkflowCode({
      workflowsPath: entry.workflowsPath,
      payloadConverterPath: PAYLOAD_CONVERTER,
      logger: silent,
    });
    await writeCachedBundle(cacheKey, code).catch(() => {});
    return { code: entry.activate(code) };
  } finally {
    entry.dispose();
  }
}
