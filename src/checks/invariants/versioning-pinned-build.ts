import type { DeploymentStamp, HistoryEvent } from '../history/model.ts';
import type { Execution } from '../run/run-view.ts';
import { type HistoryInvariant, judge } from '../verdict.ts';

interface Pin {
  stamp: DeploymentStamp;
  eventId: number;
}

/** The builds an execution's workflow tasks were completed on, in order, each once per stretch ("v1 -> v2"). */
function buildsOf(stamps: readonly DeploymentStamp[]): string {
  return stamps
    .map((stamp) => stamp.buildId)
    .filter((build, i, all) => i === 0 || all[i - 1] !== build)
    .join(' -> ');
}

function stampsOf(execution: Execution): { event: HistoryEvent; stamp: DeploymentStamp }[] {
  return execution.history.events.flatMap((event) =>
    event.attrs.kind === 'workflow-task' && event.attrs.deployment ? [{ event, stamp: event.attrs.deployment }] : [],
  );
}

/**
 * Worker Versioning, from the deployment version the server records on each WorkflowTaskCompleted:
 * a run pinned to a build takes every workflow task of the execution on that build (a deploy that
 * moves it mid-execution hands its history to code that never wrote it, which only a patch
 * makes safe); and an execution that continues as new after the server told it its target
 * version changed (`targetWorkerDeploymentVersionChanged` on WorkflowTaskStarted) starts the next
 * execution on the new build (upgrade on ContinueAsNew: a ContinueAsNew without
 * `initialVersioningBehavior: AUTO_UPGRADE` keeps the run on the old build for good).
 * Not applicable to a run no versioned worker took.
 */
export const versioningPinnedBuild: HistoryInvariant = {
  id: 'versioning.pinned-build',
  appliesTo: 'any-workflow',
  // Judged from the workflow tasks' attributes alone: an offloaded payload changes nothing here.
  readsPayloads: false,
  description:
    'Worker Versioning: a pinned execution stays on its build up to its ContinueAsNew; one told its target version changed continues as new onto the new build',
  check(run) {
    const failures: string[] = [];
    const notes: string[] = [];
    let pinnedBefore: Pin | undefined;
    let changedBefore: HistoryEvent | undefined;
    for (const execution of run.executions) {
      const at = (event: HistoryEvent) => run.at(execution, event.id);
      const stamps = stampsOf(execution);
      const [first] = stamps;
      if (!first) continue;
      if (pinnedBefore && changedBefore && first.stamp.version === pinnedBefore.stamp.version) {
        failures.push(
          `${at(first.event)}: the execution starts on ${first.stamp.version}, the build the one before was pinned to, though the server had ` +
            `told that one its target version changed (${changedBefore.type} ${changedBefore.id}): its ContinueAsNew did not upgrade (AUTO_UPGRADE)`,
        );
      }
      let pin: Pin | undefined;
      let changed: HistoryEvent | undefined;
      for (const event of execution.history.events) {
        const { attrs } = event;
        if (attrs.kind !== 'workflow-task') continue;
        if (attrs.phase === 'started' && attrs.targetVersionChanged) changed ??= event;
        const stamp = attrs.deployment;
        if (attrs.phase !== 'completed' || !stamp) continue;
        if (pin && stamp.version !== pin.stamp.version) {
          failures.push(
            `${at(event)}: WorkflowTaskCompleted on ${stamp.version}, but the execution is pinned to ${pin.stamp.version} ` +
              `(since ${run.at(execution, pin.eventId)}): it moved to another build before its ContinueAsNew`,
          );
          pin = undefined;
        }
        if (stamp.behavior === 'pinned') pin ??= { stamp, eventId: event.id };
      }
      notes.push(
        `execution ${execution.number}: ${buildsOf(stamps.map((s) => s.stamp))}${pin ? ' (pinned)' : ''}` +
          `${changed ? `, told its target version changed at event ${changed.id}` : ''}`,
      );
      pinnedBefore = execution.end?.kind === 'continued-as-new' ? pin : undefined;
      changedBefore = execution.end?.kind === 'continued-as-new' ? changed : undefined;
    }
    if (notes.length === 0) return judge(this.id, [], ['no workflow task was completed by a versioned worker'], false);
    return judge(this.id, failures, notes, true);
  },
};
