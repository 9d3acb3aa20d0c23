/**
 * `--drive-on` and `--judge-on` with the runs' mocks on two `longrun mock-server` replicas: the
 * driver or the judging on a `longrun harness-worker` process is handed each run's
 * `requests.accepted` gathered from both replicas by the `run` process, a refusal only the second
 * replica gave failing its run. About 20-35 seconds on two cores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../mocks/index.ts';
import { type Environment, startEnvironment } from '../environment/index.ts';
import { type RunScenarioOptions, runScenario } from '../runner/run-scenario.ts';
import { expectJudgedOverBoth, sendElsewhere, startReplicas } from '../runner/testing/mock-replicas.ts';
import { resolveScenario } from '../scenario/index.ts';
import { queueDriver } from './queue-driver.ts';
import { queueJudge } from './queue-judge.ts';
import { type HarnessWorkerProcess, spawnHarnessWorker, stopHarnessWorkers } from './testing/harness-workers.ts';

const { scenario } = resolveScenario('smoke');
const QUEUE = 'on-replicas';
let environment: Environment;
let replicas: MockServer[] = [];
const workers: HarnessWorkerProcess[] = [];
beforeAll(async () => {
  environment = await startEnvironment();
});
afterAll(async () => {
  await stopHarnessWorkers(workers);
  await Promise.all(replicas.map((replica) => replica.close()));
  await environment?.teardown();
});

/** Fresh replicas a test's runs talk to (the runs of each test have the same ids), with the other's calls sent. */
async function replicasWithCallsElsewhere(): Promise<[MockServer, MockServer]> {
  await Promise.all(replicas.map((replica) => replica.close()));
  replicas = await startReplicas(scenario);
  await sendElsewhere(replicas[1] as MockServer);
  return replicas as [MockServer, MockServer];
}

async function harnessWorker(): Promise<void> {
  if (workers.length > 0) return;
  const worker = spawnHarnessWorker(environment.address, QUEUE);
  workers.push(worker);
  await worker.ready;
}

/** `smoke` on fresh replicas with the queue doing what `options` hands it: judged over both replicas. */
async function expectJudgedOnQueue(options: Pick<RunScenarioOptions, 'driveElsewhere' | 'judgeElsewhere'>): Promise<void> {
  const [near, other] = await replicasWithCallsElsewhere();
  await harnessWorker();
  const summary = await runScenario(scenario, { environment, ...options, mockReplicas: [near.url, other.url] });
  expectJudgedOverBoth(summary, near);
  expect(summary.passed).toBe(false);
}

describe('the harness task queue, the runs on mock replicas', () => {
  it("drives the runs, each run's requests judged over both replicas, a refusal only the second gave failing its run", async () => {
    await expectJudgedOnQueue({ driveElsewhere: queueDriver(QUEUE) });
  }, 90_000);

  it('judges the runs this process drove with the requests gathered from both replicas', async () => {
    await expectJudgedOnQueue({ judgeElsewhere: queueJudge(QUEUE) });
  }, 90_000);
});
