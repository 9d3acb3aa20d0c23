/**
 * A run's histories read while it runs are what a fetch after its end reads: every execution of
 * its ContinueAsNew chain, the same events for the checks and the replay, the same sizes. About
 * 10 seconds on two cores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessMocks } from '../../mocks/index.ts';
import { smallScenario } from '../chaos/testing/chaos-runs.ts';
import { type Environment, startEnvironment } from '../environment/index.ts';
import type { BinaryId } from '../kernel/index.ts';
import { type KernelWorkers, startKernelWorkers } from '../kernel/workers/kernel-workers.ts';
import { mockOptionsOf } from '../scenario/mock-options.ts';
import { fetchRunForJudging, type JudgingFetchOptions } from './history-chain.ts';
import { HistoryStreams, RunHistoryStream } from './history-stream.ts';
import { type LaunchContext, launchRun } from './launch.ts';

const scenario = smallScenario('history-stream', { runs: { count: 1, concurrency: 1, maxTurns: 30, timeout: '90s' }, faults: {} });
const options: JudgingFetchOptions = { loadOptions: (i) => ({ source: `execution ${i + 1}` }), activityInputs: false };

let environment: Environment;
let mocks: ReturnType<typeof startInProcessMocks>;
let workers: KernelWorkers;
let launchContext: LaunchContext;
beforeAll(async () => {
  environment = await startEnvironment();
  mocks = startInProcessMocks(mockOptionsOf(scenario));
  workers = await startKernelWorkers(
    environment,
    ['v1'],
    { modelBaseUrl: mocks.modelBaseUrl, sandboxBaseUrl: mocks.sandboxBaseUrl },
    'history-stream',
  );
  launchContext = {
    client: environment.client,
    scenario,
    planFor: (runId) => mocks.planFor(runId),
    taskQueue: (binary) => workers.taskQueue(binary as BinaryId),
    startedAt: new Date(),
  };
});
afterAll(async () => {
  await workers?.stop();
  mocks?.close();
  await environment?.teardown();
});

describe('RunHistoryStream', () => {
  it('reads a ContinueAsNew chain while it runs as a fetch after its end does', async () => {
    const run = await launchRun(launchContext, 'v1', 0);
    const stream = new RunHistoryStream(environment.client, run.workflowId, run.firstRunId, options);
    let closedSeen = false;
    void stream.closed.then(() => (closedSeen = true));
    await environment.client.workflow.getHandle(run.workflowId).result();
    const streamed = await stream.finish();
    const fetched = await fetchRunForJudging(environment.client, run.workflowId, run.firstRunId, options);

    expect(closedSeen).toBe(true);
    expect(fetched.length).toBeGreaterThan(1); // the scenario's 150 kB budget continues it as new
    expect(streamed?.map((e) => e.temporalRunId)).toEqual(fetched.map((e) => e.temporalRunId));
    expect(streamed?.map((e) => e.bytes)).toEqual(fetched.map((e) => e.bytes));
    expect(streamed?.map((e) => e.replayable)).toEqual(fetched.map((e) => e.replayable));
    expect(streamed?.map((e) => e.loaded)).toEqual(fetched.map((e) => e.loaded));
  });

  it('gives nothing once closed, so the judging fetches the run itself', async () => {
    const run = await launchRun(launchContext, 'v1', 1);
    const stream = new RunHistoryStream(environment.client, run.workflowId, run.firstRunId, options);
    stream.close();
    await environment.client.workflow.getHandle(run.workflowId).result();
    expect(await stream.finish()).toBeUndefined();
  });

  it('streams a few runs at once: the rest are fetched when judged', async () => {
    const run = await launchRun(launchContext, 'v1', 2);
    const streams = new HistoryStreams(2);
    const open = () => streams.open(environment.client, run.workflowId, run.firstRunId, options);
    const [first, second] = [open(), open()];
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(open()).toBeUndefined();
    first?.close();
    first?.close(); // a second close frees no second slot
    const third = open();
    expect(third).toBeDefined();
    expect(open()).toBeUndefined();
    await environment.client.workflow.getHandle(run.workflowId).result();
    expect((await third?.finish())?.length).toBeGreaterThan(0);
    second?.close();
    third?.close();
  });
});
