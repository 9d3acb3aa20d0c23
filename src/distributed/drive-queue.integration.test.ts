/**
 * Driving on a harness task queue against the embedded server: the verdicts of the one-process
 * run on the same seed, with the runs started, watched and judged by `longrun harness-worker`
 * processes; and a harness worker SIGKILLed mid-drive, whose drive another takes over, every run
 * started once and judged once, the report whole.
 */
import { temporal } from '@temporalio/proto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../environment/index.ts';
import { runScenario } from '../runner/run-scenario.ts';
import { driveWorkflowId, judgingWorkflowId } from './harness-ids.ts';
import { queueDriver } from './queue-driver.ts';
import { oneProcessBaseline, QUEUE_SCENARIO, stopHarnessWorkers, verdictsOf } from './testing/harness-workers.ts';

const scenario = QUEUE_SCENARIO;
const { EventType, PendingActivityState } = temporal.api.enums.v1;

describe('driving on a harness task queue', () => {
  const baseline = oneProcessBaseline();
  const { spawnWorker } = baseline;
  let env: Environment;
  beforeAll(() => {
    env = baseline.env;
  });

  it('gives the one-process verdicts, every run started and judged on the queue', async () => {
    const queue = 'drive-1';
    const worker = spawnWorker(queue);
    await worker.ready;
    const summary = await runScenario(scenario, { environment: env, driveElsewhere: queueDriver(queue) });
    expect(verdictsOf(summary)).toEqual(verdictsOf(baseline.oneProcess));
    const children = (await env.client.workflow.getHandle(driveWorkflowId(scenario)).result()) as string[];
    expect(children).toHaveLength(4);
    for (const run of summary.runs) {
      const judging = await env.client.workflow.getHandle(judgingWorkflowId(scenario, run.workflowId)).describe();
      expect(judging.status.name).toBe('COMPLETED');
    }
    await stopHarnessWorkers([worker]);
  }, 90_000);

  it('loses nothing to a harness worker SIGKILLed mid-drive: another finishes, each run started once and judged once', async () => {
    const queue = 'drive-killed';
    const first = spawnWorker(queue);
    await first.ready;
    const driving = runScenario(scenario, { environment: env, driveElsewhere: queueDriver(queue) });
    const watched = await watchStarted(env, driveWorkflowId(scenario));
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    await spawnWorker(queue).ready;
    const summary = await driving;
    expect(verdictsOf(summary)).toEqual(verdictsOf(baseline.oneProcess));
    const children = (await env.client.workflow.getHandle(driveWorkflowId(scenario)).result()) as string[];
    expect(children).toHaveLength(summary.runs.length);
    expect(new Set(summary.runs.map((run) => run.workflowId)).size).toBe(summary.runs.length);
    for (const child of children) {
      const steps = await activityCounts(env, child);
      // One start, one watch completed, one judging: a run started once and judged once.
      expect(steps.completed).toEqual({ startDrivenRun: 1, drivenRunStarted: 1, watchDrivenRun: 1, drivenRunEnded: 1 });
      expect(steps.children).toBe(1);
    }
    // The watch the killed worker held was taken over: its run's watch started again, on a second attempt.
    expect((await activityCounts(env, watched)).watchAttempts).toEqual([2]);
    for (const run of summary.runs) {
      const judging = await env.client.workflow.getHandle(judgingWorkflowId(scenario, run.workflowId)).fetchHistory();
      expect(judging.events?.filter((event) => event.activityTaskCompletedEventAttributes)).toHaveLength(1);
    }
  }, 120_000);
});

/** Waits until a run's watch runs on a harness worker; the id of that run's child workflow. */
async function watchStarted(env: Environment, driveId: string): Promise<string> {
  for (;;) {
    const drive = await env.client.workflow
      .getHandle(driveId)
      .describe()
      .catch(() => undefined);
    for (const child of drive?.status.name === 'RUNNING' ? (drive.raw.pendingChildren ?? []) : []) {
      const description = await env.client.workflow.getHandle(child.workflowId ?? '').describe();
      const watching = description.raw.pendingActivities?.some(
        (activity) =>
          activity.activityType?.name === 'watchDrivenRun' && activity.state === PendingActivityState.PENDING_ACTIVITY_STATE_STARTED,
      );
      if (watching) return child.workflowId as string;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A run's child workflow: its activities completed by type, the attempts its watch was recorded on, its children. */
async function activityCounts(env: Environment, workflowId: string) {
  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const typeOf = new Map<number, string>();
  const completed: Record<string, number> = {};
  const watchAttempts: number[] = [];
  for (const event of events) {
    const id = Number(event.eventId);
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) typeOf.set(id, scheduled.activityType?.name ?? '');
    const started = event.activityTaskStartedEventAttributes;
    if (started && typeOf.get(Number(started.scheduledEventId)) === 'watchDrivenRun') watchAttempts.push(started.attempt ?? 0);
    const done = event.activityTaskCompletedEventAttributes;
    if (done) {
      const type = typeOf.get(Number(done.scheduledEventId)) ?? '';
      completed[type] = (completed[type] ?? 0) + 1;
    }
  }
  const children = events.filter((event) => event.eventType === EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED).length;
  return { completed, watchAttempts, children };
}
