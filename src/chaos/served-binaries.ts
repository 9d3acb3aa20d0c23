/**
 * Which binaries ran a run, read from its histories: every WorkflowTaskStarted event records the
 * identity of the worker that took the task, and chaos workers name their binary in it.
 */
import type { temporal } from '@temporalio/proto';
import { type BinaryId, isBinaryId } from '../kernel/index.ts';
import { binaryOfIdentity } from './worker-messages.ts';

/**
 * The binaries whose workers took the run's workflow tasks, in the order they first did: the last
 * is the newest to take the run over (workers side by side may hand tasks back and forth).
 */
export function servedBinaries(histories: readonly temporal.api.history.v1.IHistory[]): BinaryId[] {
  const served: BinaryId[] = [];
  for (const history of histories) {
    for (const event of history.events ?? []) {
      const binary = binaryOfIdentity(event.workflowTaskStartedEventAttributes?.identity);
      if (binary && isBinaryId(binary) && !served.includes(binary)) served.push(binary);
    }
  }
  return served;
}
