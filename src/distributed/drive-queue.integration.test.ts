/**
 * Driving on a harness task queue against the embedded server: the verdicts of the one-process
 * run on the same seed, with the runs started, watched and judged by `longrun harness-worker`
 * processes; a drive whose driver continues as new past its bound of runs, every run reported
 * once; a harness worker SIGKILLed mid-drive, whose drive another takes over, every run
 * started once and judged once, the report whole; a second `run --drive-on` of the same
 * scenario and seed, which attaches to the drive under way instead of starting its runs again;
 * and an interrupt, which cancels the drive once its runs are stopped.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../environment/index.ts';
import type { Summary } from '../result/index.ts';
import { runScenario } from '../runner/run-scenario.ts';
import { packagePath } from '../shared/package-paths.ts';
import { childrenOfDrive } from './drive-hand-over.ts';
import { driveWorkflowId, judgingWorkflowId } from './harness-ids.ts';
import { queueDriver } from './queue-driver.ts';
import {
  executionsOf,
  oneProcessBaseline,
  QUEUE_SCENARIO,
  reportIn,
  spawnRun,
  stopHarnessWorkers,
  verdictsOf,
} from './testing/harness-workers.ts';

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
    const children = childrenOfDrive(driveWorkflowId(scenario), await env.client.workflow.getHandle(driveWorkflowId(scenario)).result());
    expect(children).toHaveLength(4);
    for (const run of summary.runs) {
      const judging = await env.client.workflow.getHandle(judgingWorkflowId(scenario, run.workflowId)).describe();
      expect(judging.status.name).toBe('COMPLETED');
    }
    await stopHarnessWorkers([worker]);
  }, 90_000);

  it('continues as new past its bound of runs: each run started once and judged once, the one-process verdicts', async () => {
    const queue = 'drive-continued';
    await spawnWorker(queue).ready;
    // One run an execution: the 4 runs (one a binary) take 4 executions of the driver.
    const summary = await runScenario(scenario, {
      environment: env,
      driveElsewhere: queueDriver(queue, undefined, { runsPerExecution: 1 }),
    });
    expect(verdictsOf(summary)).toEqual(verdictsOf(baseline.oneProcess));
    const driveId = driveWorkflowId(scenario);
    expect(await executionsOf(env, driveId)).toBe(4);
    // The last execution's result names the runs of every execution.
    const children = childrenOfDrive(driveId, await env.client.workflow.getHandle(driveId).result());
    expect(new Set(children).size).toBe(4);
    for (const child of children) expect((await activityCounts(env, child)).completed.startDrivenRun).toBe(1);
  }, 120_000);

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
    const children = childrenOfDrive(driveWorkflowId(scenario), await env.client.workflow.getHandle(driveWorkflowId(scenario)).result());
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
  it('attaches a second invocation of the same scenario and seed to the drive under way: its runs started once, both reports whole', async () => {
    const queue = 'drive-attached';
    await spawnWorker(queue).ready;
    const dir = mkdtempSync(join(tmpdir(), 'longrun-attach-'));
    try {
      const file = join(dir, 'cross-version-replay.yaml');
      const yaml = readFileSync(packagePath('scenarios', 'cross-version-replay.yaml'), 'utf8');
      writeFileSync(file, yaml.replace(/^ {2}count: \d+$/m, `  count: ${scenario.runs.count}`));
      const reportDir = join(dir, 'reports');
      const first = spawnRun(env.address, [file, '--drive-on', queue, '--report-dir', reportDir]);
      const driveId = driveWorkflowId(scenario);
      const drive = await driveRunning(env, driveId);
      const summary = await runScenario(scenario, { environment: env, driveElsewhere: queueDriver(queue) });
      // Passed, or a verdict failed (exit 1); never a harness error (exit 2).
      expect([0, 1], first.output()).toContain(await first.exited);
      const firstSummary = reportIn(reportDir);
      // One drive, whose runs both invocations report whole: each started once. (Their verdicts are
      // not compared: a run's requests may reach either process's mocks, whose ledgers are their own.)
      const handle = env.client.workflow.getHandle(driveId);
      expect((await handle.describe()).runId).toBe(drive);
      const children = childrenOfDrive(driveId, await handle.result());
      expect(children).toHaveLength(4);
      for (const child of children) expect((await activityCounts(env, child)).completed.startDrivenRun).toBe(1);
      const runsOf = (reported: Summary) => reported.runs.map((run) => `${run.runId} ${run.binary} ${run.workflowId}`).sort();
      expect(runsOf(summary)).toHaveLength(4);
      expect(runsOf(firstSummary)).toEqual(runsOf(summary));
      expect(verdictsOf(summary).runs.map(({ runId, binary }) => ({ runId, binary }))).toEqual(
        verdictsOf(baseline.oneProcess).runs.map(({ runId, binary }) => ({ runId, binary })),
      );
      expect([summary.partial, firstSummary.partial]).toEqual([false, false]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
  it('stops on an interrupt: the drive cancelled, the run it watched stopped, a partial report', async () => {
    const queue = 'drive-stopped';
    await spawnWorker(queue).ready;
    const stop = new AbortController();
    const driving = runScenario(scenario, { environment: env, driveElsewhere: queueDriver(queue), signal: stop.signal });
    const watched = await watchStarted(env, driveWorkflowId(scenario));
    stop.abort();
    const summary = await driving;
    expect(summary.partial).toBe(true);
    const drive = env.client.workflow.getHandle(driveWorkflowId(scenario));
    await expect(drive.result()).rejects.toThrow();
    expect((await drive.describe()).status.name).toBe('CANCELLED');
    const started = (await env.client.workflow.getHandle(watched).fetchHistory()).events?.find(
      (event) => event.activityTaskCompletedEventAttributes,
    );
    const payload = started?.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data as Uint8Array;
    const run = JSON.parse(new TextDecoder().decode(payload)) as { workflowId: string };
    expect((await env.client.workflow.getHandle(run.workflowId).describe()).status.name).not.toBe('RUNNING');
  }, 120_000);
});

/** Waits until a drive is under way; its run id. */
async function driveRunning(env: Environment, driveId: string): Promise<string> {
  for (;;) {
    const drive = await env.client.workflow
      .getHandle(driveId)
      .describe()
      .catch(() => undefined);
    if (drive?.status.name === 'RUNNING') return drive.runId;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until a run's watch runs on a harness worker; the id of that run's child workflow. */
async function watchStarted(env: Environment, driveId: string): Promise<string> {
  for (;;) {
    const drive = await env.client.workflow
      .getHandle(driveId)
      .describe()
      .catch(() => undefined);
    for (const child of drive?.status.name === 'RUNNING' ? (drive.raw.pendingChildren ?? []) : []) {
      // A child the drive has initiated may not have started yet.
      const description = await env.client.workflow
        .getHandle(child.workflowId ?? '')
        .describe()
        .catch(() => undefined);
      const watching = description?.raw.pendingActivities?.some(
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
