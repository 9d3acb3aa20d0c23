/**
 * Workflow bundles of the kernel binaries, built once per process: bundling takes seconds and
 * every worker and replay of the same binary can share one.
 */
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { BINARIES, type BinaryId } from '../index.ts';
import { mutantActivatedEntry } from './mutant-activation.ts';

const bundles = new Map<BinaryId, Promise<WorkflowBundleWithSourceMap>>();

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

export function workflowBundle(binary: BinaryId): Promise<WorkflowBundleWithSourceMap> {
  let bundle = bundles.get(binary);
  if (!bundle) {
    const entry = mutantActivatedEntry(BINARIES[binary].workflowsPath);
    bundle = bundleWorkflowCode({ workflowsPath: entry.workflowsPath, logger: silent }).finally(entry.dispose);
    bundles.set(binary, bundle);
  }
  return bundle;
}
