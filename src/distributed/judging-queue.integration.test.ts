/**
 * Judging on a harness task queue against the embedded server: the verdicts of the one-process
 * run, on the same seed, with one and then two `longrun harness-worker` processes; and a harness
 * worker SIGKILLed mid-judging, whose judging another finishes, every run judged exactly once.
 */
import { Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { temporal } from '@temporalio/proto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../environment/index.ts';
import type { RunRecord } from '../result/index.ts';
import type { JudgingRequest, RunJudge } from '../runner/judged-elsewhere.ts';
import { runScenario } from '../runner/run-scenario.ts';
import { JUDGING_WORKFLOW_TYPE, judgingWorkflowId, queueJudge } from './queue-judge.ts';
import { oneProcessBaseline, QUEUE_SCENARIO, stopHarnessWorkers, verdictsOf } from './testing/harness-workers.ts';

const scenario = QUEUE_SCENARIO;

describe('judging on a harness task queue', () => {
  const baseline = oneProcessBaseline();
  const { spawnWorker } = baseline;
  let env: Environment;
  beforeAll(() => {
    env = baseline.env;
  });

  for (const count of [1, 2]) {
    it(`gives the one-process verdicts with ${count} harness worker(s)`, async () => {
      const queue = `judge-${count}`;
      const serving = Array.from({ length: count }, () => spawnWorker(queue));
      await Promise.all(serving.map((worker) => worker.ready));
      const summary = await runScenario(scenario, { environment: env, judgeElsewhere: queueJudge(queue) });
      expect(verdictsOf(summary)).toEqual(verdictsOf(baseline.oneProcess));
      await stopHarnessWorkers(serving);
    }, 90_000);
  }

  it('judges from a namespace of its own, reading the runs in theirs', async () => {
    const namespace = 'longrun-harness';
    await env.client.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    await namespaceServed(env, namespace);
    const serving = spawnWorker('judge-ns', namespace);
    await serving.ready;
    const summary = await runScenario(scenario, { environment: env, judgeElsewhere: queueJudge('judge-ns', namespace) });
    expect(verdictsOf(summary)).toEqual(verdictsOf(baseline.oneProcess));
    const run = summary.runs[0] as RunRecord;
    const judgings = new Client({ connection: env.client.connection, namespace }).workflow;
    const id = judgingWorkflowId(scenario, run.workflowId);
    expect((await judgings.getHandle(id).describe()).status.name).toBe('COMPLETED');
    await expect(env.client.workflow.getHandle(id).describe()).rejects.toThrow();
    await stopHarnessWorkers([serving]);
  }, 90_000);

  it('loses nothing to a harness worker SIGKILLed mid-judging: another finishes, each run judged once', async () => {
    const queue = 'judge-killed';
    const first = spawnWorker(queue);
    await first.ready;
    const inner = queueJudge(queue);
    let killed = false;
    const ids: string[] = [];
    let firstRequest: JudgingRequest | undefined;
    const judge: RunJudge = async (request) => {
      const workflowId = judgingWorkflowId(request.scenario, request.run.workflowId);
      ids.push(workflowId);
      const record = inner(request);
      if (!killed) {
        killed = true;
        firstRequest = request;
        await activityStarted(env, workflowId);
        first.child.kill('SIGKILL');
        spawnWorker(queue);
      }
      return record;
    };
    const summary = await runScenario(scenario, { environment: env, judgeElsewhere: judge });
    expect(await first.exited).toBeNull();
    expect(verdictsOf(summary)).toEqual(verdictsOf(baseline.oneProcess));
    expect(new Set(summary.runs.map((run) => run.workflowId)).size).toBe(summary.runs.length);
    // Each run had one judging, which completed its activity once; the killed one's on a second attempt.
    expect(new Set(ids).size).toBe(summary.runs.length);
    const attempts = await Promise.all(ids.map((id) => judgingAttempts(env, id)));
    for (const judging of attempts) expect(judging.completed).toBe(1);
    expect(attempts[0]?.started).toEqual([2]);
    // The id is never reused: a second judging of a run is refused.
    const again = env.client.workflow.start(JUDGING_WORKFLOW_TYPE, {
      taskQueue: queue,
      workflowId: ids[0] as string,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
    await expect(again).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
    // A run handed over again gets the record of its one judging.
    const record = await inner(firstRequest as JudgingRequest);
    expect(summary.runs.find((run) => run.workflowId === record.workflowId)).toEqual(record);
    expect((await judgingAttempts(env, ids[0] as string)).completed).toBe(1);
  }, 120_000);
});

const STARTED = temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;

/** Waits until a namespace just registered takes calls (the server's namespace cache refreshes every few seconds). */
async function namespaceServed(env: Environment, namespace: string): Promise<void> {
  for (;;) {
    const served = await env.client.workflowService.listWorkflowExecutions({ namespace }).then(
      () => true,
      () => false,
    );
    if (served) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Waits until the judging's activity runs on a worker (its pending activity started). */
async function activityStarted(env: Environment, workflowId: string): Promise<void> {
  for (;;) {
    const description = await env.client.workflow
      .getHandle(workflowId)
      .describe()
      .catch(() => undefined);
    if (description?.raw.pendingActivities?.some((activity) => activity.state === STARTED)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The judging workflow's activity: the attempts it was started on (its history records the last), and how often it completed. */
async function judgingAttempts(env: Environment, workflowId: string): Promise<{ started: number[]; completed: number }> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  return {
    started: events.flatMap((event) =>
      event.activityTaskStartedEventAttributes ? [event.activityTaskStartedEventAttributes.attempt ?? 0] : [],
    ),
    completed: events.filter((event) => event.activityTaskCompletedEventAttributes).length,
  };
}
