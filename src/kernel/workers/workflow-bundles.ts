/**
 * Workflow bundles of the kernel binaries, built once per process and kept on disk between
 * processes (bundle-cache.ts): bundling takes seconds and every worker and replay of the same
 * binary can share one.
 */
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { siblingModule } from '../../shared/package-paths.ts';
import { BINARIES, type BinaryId } from '../index.ts';
import { readCachedBundle, writeCachedBundle } from './bundle-cache.ts';
import { mutantActivatedEntry } from './mutant-activation.ts';

/**
 * The sandbox's payload converter (payload-converter.ts: the SDK's bytes through the native UTF-8
 * codec). Only the bundle gets it: a worker's activity side loads a converter by plain `require`,
 * which cannot read TypeScript in a clone or under vitest, and keeps the SDK's default there,
 * which writes and reads the same bytes.
 */
const PAYLOAD_CONVERTER = siblingModule(import.meta.url, './payload-converter.ts');

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
