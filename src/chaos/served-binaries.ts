/**
 * Which binaries ran a run, read from its histories: every WorkflowTaskStarted event records the
 * identity of the worker that took the task, and chaos workers name their binary in it (a
 * foreign worker's pool knows the identities its workers polled under).
 */
import type { temporal } from '@temporalio/proto';
import { type BinaryId, type BinaryName, isBinaryId } from '../kernel/index.ts';
import { binaryOfIdentity } from './worker-messages.ts';

/** The kernel binary a chaos worker's identity names (`v1@longrun-worker-1234`). */
export function kernelBinaryOf(identity: string): BinaryId | undefined {
  const binary = binaryOfIdentity(identity);
  return binary && isBinaryId(binary) ? binary : undefined;
}

/**
 * The binaries whose workers took the run's workflow tasks, in the order they first did: the last
 * is the newest to take the run over (workers side by side may hand tasks back and forth).
 */
export function servedBinaries(
  histories: readonly temporal.api.history.v1.IHistory[],
  binaryOf: (identity: string) => BinaryName | undefined = kernelBinaryOf,
): BinaryName[] {
  const served: BinaryName[] = [];
  for (const history of histories) {
    for (const event of history.events ?? []) {
      const identity = event.workflowTaskStartedEventAttributes?.identity;
      const binary = identity ? binaryOf(identity) : undefined;
      if (binary && !served.includes(binary)) served.push(binary);
    }
  }
  return served;
}
