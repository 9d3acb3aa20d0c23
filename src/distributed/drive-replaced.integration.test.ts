/**
 * A `run --drive-on` process SIGKILLed mid-drive, some runs judged and others in flight, and a
 * second `run` of the same scenario and seed that replaces it: it attaches to the drive, its
 * workers take the kernel's task queues over, its host queue (named from the driver's id) gets
 * the verdicts the drive asks for, and its report holds every run of the drive once, judged.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Environment, startEnvironment } from '../environment/index.ts';
import { packagePath } from '../shared/package-paths.ts';
import { driveWorkflowId } from './harness-ids.ts';
import { QUEUE_SCENARIO, reportIn, spawnHarnessWorker, spawnRun, stopHarnessWorkers } from './testing/harness-workers.ts';

const { EventType, PendingActivityState, TimeoutType } = temporal.api.enums.v1;
/** Two runs a binary, one at a time: 8 runs, so that some are judged while others are in flight. */
const RUNS = 8;

describe('a `run --drive-on` process replaced mid-drive', () => {
  let env: Environment;
  let dir: string;
  beforeAll(async () => {
    env = await startEnvironment({ ...QUEUE_SCENARIO.server });
    dir = mkdtempSync(join(tmpdir(), 'longrun-replaced-'));
  }, 60_000);
  afterAll(async () => {
    await env?.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('attaches a new `run` to the drive of the SIGKILLed one: the drive finishes, every run reported once with a verdict', async () => {
    const queue = 'drive-replaced';
    const worker = spawnHarnessWorker(env.address, queue);
    try {
      await worker.ready;
      const file = join(dir, 'cross-version-replay.yaml');
      const yaml = readFileSync(packagePath('scenarios', 'cross-version-replay.yaml'), 'utf8');
      writeFileSync(file, yaml.replace(/^ {2}concurrency: \d+$/m, '  concurrency: 1'));
      const runOf = (name: string) => spawnRun(env.address, [file, '--drive-on', queue, '--report-dir', join(dir, name)]);
      const driveId = driveWorkflowId(QUEUE_SCENARIO);

      const dead = runOf('dead');
      const { judged, watched } = await judgedAndInFlight(env, driveId);
      // Stopped, then killed once the verdict of the run `watched` watches is headed to it: the
      // host activity the dead process took must be asked again of the one that replaces it.
      dead.child.kill('SIGSTOP');
      const run = await startedRun(env, watched);
      await env.client.workflow.getHandle(run).terminate('the verdict of a run that ended, asked of a stopped `run` process');
      await hostActivityTaken(env, watched, `${dead.child.pid}@`);
      dead.child.kill('SIGKILL');
      expect(await dead.exited).toBeNull();

      const replacing = runOf('replacing');
      // Passed, or a verdict failed (exit 1: the run terminated above); never a harness error (exit 2).
      expect([0, 1], replacing.output()).toContain(await replacing.exited);
      const children = (await env.client.workflow.getHandle(driveId).result()) as string[];
      expect(children).toHaveLength(RUNS);
      const summary = reportIn(join(dir, 'replacing'));
      expect(summary.partial).toBe(false);
      // Every run of the drive once, each with its verdict, those judged before the kill among them.
      expect(summary.runs).toHaveLength(RUNS);
      const reported = new Set(summary.runs.map((reportedRun) => reportedRun.workflowId));
      expect(reported.size).toBe(RUNS);
      for (const child of judged) expect(reported).toContain(await startedRun(env, child));
      expect(reported).toContain(run);
      for (const reportedRun of summary.runs) expect(reportedRun.invariants.map(({ id }) => id)).toContain('requests.accepted');
      // The verdict the dead process had taken was asked again once its heartbeats stopped, not at its start-to-close timeout.
      expect(await hostAttempts(env, watched)).toEqual([{ attempt: 2, timedOut: TimeoutType.TIMEOUT_TYPE_HEARTBEAT }]);
    } finally {
      await stopHarnessWorkers([worker]);
    }
  }, 180_000);
});

/** Waits until the drive has judged a run and watches another; the children of those judged, and of the one watched. */
async function judgedAndInFlight(env: Environment, driveId: string): Promise<{ judged: string[]; watched: string }> {
  const drive = env.client.workflow.getHandle(driveId);
  for (;;) {
    const description = await drive.describe().catch(() => undefined);
    if (description?.status.name === 'RUNNING') {
      const events = (await drive.fetchHistory()).events ?? [];
      const judged = events.flatMap((event) =>
        event.eventType === EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED
          ? [event.childWorkflowExecutionCompletedEventAttributes?.workflowExecution?.workflowId ?? '']
          : [],
      );
      for (const child of judged.length > 0 ? (description.raw.pendingChildren ?? []) : []) {
        const pending = (await env.client.workflow.getHandle(child.workflowId ?? '').describe()).raw.pendingActivities ?? [];
        if (pending.some((activity) => isStarted(activity, 'watchDrivenRun'))) return { judged, watched: child.workflowId as string };
      }
    }
    await pause();
  }
}

/** The workflow id of the run a run's child started. */
async function startedRun(env: Environment, child: string): Promise<string> {
  const events = (await env.client.workflow.getHandle(child).fetchHistory()).events ?? [];
  const started = events.find((event) => event.activityTaskCompletedEventAttributes);
  const payload = started?.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data as Uint8Array;
  return (JSON.parse(new TextDecoder().decode(payload)) as { workflowId: string }).workflowId;
}

/** Waits until the child's `drivenRunEnded` has been taken by the worker whose identity starts with `identity`. */
async function hostActivityTaken(env: Environment, child: string, identity: string): Promise<void> {
  for (;;) {
    const pending = (await env.client.workflow.getHandle(child).describe()).raw.pendingActivities ?? [];
    if (pending.some((activity) => isStarted(activity, 'drivenRunEnded') && activity.lastWorkerIdentity?.startsWith(identity))) return;
    await pause();
  }
}

/** The child's `drivenRunEnded` as its history keeps it: the attempt that completed, and the timeout that ended the one before. */
async function hostAttempts(env: Environment, child: string) {
  const events = (await env.client.workflow.getHandle(child).fetchHistory()).events ?? [];
  const scheduled = events.find((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'drivenRunEnded');
  return events
    .filter((event) => Number(event.activityTaskStartedEventAttributes?.scheduledEventId) === Number(scheduled?.eventId))
    .map((event) => {
      const started = event.activityTaskStartedEventAttributes;
      const timedOut = started?.lastFailure?.timeoutFailureInfo?.timeoutType;
      return { attempt: started?.attempt, ...(timedOut ? { timedOut } : {}) };
    });
}

function isStarted(activity: temporal.api.workflow.v1.IPendingActivityInfo, type: string): boolean {
  return activity.activityType?.name === type && activity.state === PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 200));
}
