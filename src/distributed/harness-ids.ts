/**
 * The workflow ids of longrun's own work on a harness task queue, fixed by the scenario's seed
 * and the run, so that a retried start finds the workflow it started. Workflow-safe: it imports nothing.
 */

/** A run's judging: the scenario's seed and the run's workflow id (its scenario, index, binary and start). */
export function judgingWorkflowId(scenario: { seed: number }, runWorkflowId: string): string {
  return `longrun-judge-seed${scenario.seed}-${runWorkflowId}`;
}

/** A scenario's drive: a second invocation of the same scenario and seed attaches to it while it runs. */
export function driveWorkflowId(scenario: { name: string; seed: number }): string {
  return `longrun-drive-${scenario.name}-seed${scenario.seed}`;
}

/** Run `index` of `binary`'s share of a drive that started at `startedAtMs`. */
export function drivenRunWorkflowId(driveId: string, startedAtMs: number, binary: string, index: number): string {
  return `${driveId}-${startedAtMs.toString(36)}-${binary}-${index}`;
}
