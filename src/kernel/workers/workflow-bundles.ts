/**
 * Workflow bundles of the kernel binaries, built once per process and kept on disk between
 * processes (bundle-cache.ts): bundling takes seconds and every worker and replay of the same
 * binary can share one.
 */
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { BINARIES, type BinaryId } from '../index.ts';
import { readCachedBundle, writeCachedBundle } from './bundle-cache.ts';
import { mutantActivatedEntry } from './mutant-activation.ts';

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
    const cached = readCachedBundle(entry.workflowsPath);
    if (cached) return { code: entry.activate(cached) };
    const { code } = await bundleWorkflowCode({ workflowsPath: entry.workflowsPath, logger: silent });
    await writeCachedBundle(entry.workflowsPath, code).catch(() => {});
    return { code: entry.activate(code) };
  } finally {
    entry.dispose();
  }
}
