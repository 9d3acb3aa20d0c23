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
import type { RunRecord } from '../result/index.ts';
import { packagePath } from '../shared/package-paths.ts';
import { childrenOfDrive } from './drive-hand-over.ts';
import { driveWorkflowId } from './harness-ids.ts';
import { executionsOf, QUEUE_SCENARIO, reportIn, spawnHarnessWorker, spawnRun, stopHarnessWorkers } from './testing/harness-workers.ts';

const { EventType, PendingActivityState, TimeoutType } = temporal.api.enums.v1;
/** Two runs a binary, one at a time: 8 runs, so that some are judged while others are in flight. */
const RUNS = 8;
/** What cross-version-replay expects of its controls (binary: invariant), whichever process judged. */
const EXPECTED_OF_CONTROLS = new Set([
  'ungated: compaction.trigger', // it compacts with no marker; the scenario holds it to three invariants only
  'v0: replay.cross-version', // v0's histories fail on ungated, as the scenario's failsOn says
]);

describe('a `run --drive-on` process replaced mid-drive', () => {
  const driveId = driveWorkflowId(QUEUE_SCENARIO);
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

  /** `longrun run` of the scenario driven on `queue`, its report under `dir/<name>`. */
  function runOf(queue: string, name: string, runEnv: NodeJS.ProcessEnv = {}) {
    const file = join(dir, 'cross-version-replay.yaml');
    const yaml = readFileSync(packagePath('scenarios', 'cross-version-replay.yaml'), 'utf8');
    // A model call the dead process had taken waits out its 2-minute start-to-close timeout; its run
    // is stopped at runs.timeout from its start instead, here 30 s rather than the scenario's minute.
    writeFileSync(file, yaml.replace(/^ {2}concurrency: \d+$/m, '  concurrency: 1').replace(/^ {2}timeout: 1m$/m, '  timeout: 30s'));
    return spawnRun(env.address, [file, '--drive-on', queue, '--report-dir', join(dir, name)], runEnv);
  }

  /** The drive's children, and the report of the `run` that replaced the dead one: every run of the drive once, each with its verdict. */
  async function reportedWhole(name: string, struck: { killedAt: number; terminated?: string }) {
    const children = childrenOfDrive(driveId, await env.client.workflow.getHandle(driveId).result());
    expect(children).toHaveLength(RUNS);
    const summary = reportIn(join(dir, name));
    expect(summary.partial).toBe(false);
    expect(summary.runs).toHaveLength(RUNS);
    const reported = new Set(summary.runs.map((run) => run.workflowId));
    expect(reported.size).toBe(RUNS);
    for (const child of children) expect(reported).toContain(await startedRun(env, child));
    for (const run of summary.runs) expect(run.invariants.map(({ id }) => id)).toContain('requests.accepted');
    // Every other verdict is one process's: what the scenario expects of its controls, a run
    // terminated on purpose, and the liveness of a run in flight at the kill (its model call, held
    // by the dead process's worker, waits out its start-to-close timeout past runs.timeout).
    const inFlightAtKill = (run: RunRecord) =>
      Date.parse(run.startedAt) < struck.killedAt && Date.parse(run.startedAt) + run.durationMs > struck.killedAt;
    const unexplained = summary.runs.flatMap((run) =>
      run.invariants
        .filter((i) => i.status === 'fail' && i.id !== 'requests.accepted' && !EXPECTED_OF_CONTROLS.has(`${run.binary}: ${i.id}`))
        .filter((i) => run.workflowId !== struck.terminated && !(i.id === 'run.liveness' && inFlightAtKill(run)))
        .map((i) => `${run.runId} (${run.binary}): ${i.id}`),
    );
    expect(unexplained).toEqual([]);
    return reported;
  }

  it('attaches a new `run` to the drive of the SIGKILLed one: the drive finishes, every run reported once with a verdict', async () => {
    const queue = 'drive-replaced';
    const worker = spawnHarnessWorker(env.address, queue);
    try {
      await worker.ready;
      const dead = runOf(queue, 'dead');
      const watched = await watchedOnceReady(env, driveId, (events) => judgedIn(events).length > 0);
      const judged = judgedIn((await env.client.workflow.getHandle(driveId).fetchHistory()).events ?? []);
      // Stopped, then killed once the verdict of the run `watched` watches is headed to it: the
      // host activity the dead process took must be asked again of the one that replaces it.
      dead.child.kill('SIGSTOP');
      const run = await startedRun(env, watched);
      await env.client.workflow.getHandle(run).terminate('the verdict of a run that ended, asked of a stopped `run` process');
      await hostActivityTaken(env, watched, `${dead.child.pid}@`);
      const killedAt = Date.now();
      dead.child.kill('SIGKILL');
      expect(await dead.exited).toBeNull();

      const replacing = runOf(queue, 'replacing');
      // Passed, or a verdict failed (exit 1: the run terminated above); never a harness error (exit 2).
      expect([0, 1], replacing.output()).toContain(await replacing.exited);
      // Those judged before the kill among them.
      const reported = await reportedWhole('replacing', { killedAt, terminated: run });
      expect(judged.length).toBeGreaterThan(0);
      for (const child of judged) expect(reported).toContain(await startedRun(env, child));
      // The verdict the dead process had taken was asked again once its heartbeats stopped, not at its start-to-close timeout.
      expect(await hostAttempts(env, watched)).toEqual([{ attempt: 2, timedOut: TimeoutType.TIMEOUT_TYPE_HEARTBEAT }]);
    } finally {
      await stopHarnessWorkers([worker]);
    }
  }, 180_000);

  it('attaches across the drive continued as new: the new `run` follows the executions, every run of each reported once', async () => {
    const queue = 'drive-replaced-continued';
    const worker = spawnHarnessWorker(env.address, queue);
    try {
      await worker.ready;
      // 4 runs an execution: each binary's first run in the first, its second in the next.
      const dead = runOf(queue, 'dead-continued', { LONGRUN_DRIVE_RUNS_PER_EXECUTION: '4' });
      await watchedOnceReady(env, driveId, (events) =>
        Boolean(events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId),
      );
      const killedAt = Date.now();
      dead.child.kill('SIGKILL');
      expect(await dead.exited).toBeNull();
      const replacing = runOf(queue, 'replacing-continued');
      expect([0, 1], replacing.output()).toContain(await replacing.exited);
      await reportedWhole('replacing-continued', { killedAt });
      expect(await executionsOf(env, driveId)).toBe(2);
    } finally {
      await stopHarnessWorkers([worker]);
    }
  }, 180_000);
});

/** The children the drive's history has seen complete: their runs judged. */
function judgedIn(events: readonly temporal.api.history.v1.IHistoryEvent[]): string[] {
  return events.flatMap((event) =>
    event.eventType === EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED
      ? [event.childWorkflowExecutionCompletedEventAttributes?.workflowExecution?.workflowId ?? '']
      : [],
  );
}

/** Waits until the drive's running execution is `ready` by its history and watches a run; the child that watches it. */
async function watchedOnceReady(
  env: Environment,
  driveId: string,
  ready: (events: readonly temporal.api.history.v1.IHistoryEvent[]) => boolean,
): Promise<string> {
  const drive = env.client.workflow.getHandle(driveId);
  for (;;) {
    const description = await drive.describe().catch(() => undefined);
    if (description?.status.name === 'RUNNING' && ready((await drive.fetchHistory()).events ?? [])) {
      for (const child of description.raw.pendingChildren ?? []) {
        // A child the drive has initiated may not have started yet.
        const description = await env.client.workflow
          .getHandle(child.workflowId ?? '')
          .describe()
          .catch(() => undefined);
        const pending = description?.raw.pendingActivities ?? [];
        if (pending.some((activity) => isStarted(activity, 'watchDrivenRun'))) return child.workflowId as string;
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
