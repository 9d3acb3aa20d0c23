/** The payloads of a run offloaded to External Storage that the checks read and could not (history/external-storage.ts). */
import type { ResolvedReference } from '../history/reference-model.ts';
import type { Execution, RunView } from './run-view.ts';

/** References to payloads the checks read (the mapping's activities, the workflow's input and result) that were not resolved. */
export function unreadReferences(run: RunView): { execution: Execution; reference: ResolvedReference }[] {
  return run.executions.flatMap((execution) =>
    (execution.history.references ?? [])
      .filter((reference) => reference.read && reference.resolution !== 'resolved')
      .map((reference) => ({ execution, reference })),
  );
}
