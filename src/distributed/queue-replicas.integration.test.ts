/**
 * `--drive-on` with the runs' mocks on two `longrun mock-server` replicas: the driver on a
 * `longrun harness-worker` process is handed each run's `requests.accepted` gathered from both
 * replicas by the `run` process, a refusal only the second replica gave failing its run. About
 * 30 seconds on two cores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../mocks/index.ts';
import { type Environment, startEnvironment } from '../environment/index.ts';
import { runScenario } from '../runner/run-scenario.ts';
import { expectJudgedOverBoth, sendElsewhere, startReplicas } from '../runner/testing/mock-replicas.ts';
import { resolveScenario } from '../scenario/index.ts';
import { queueDriver } from './queue-driver.ts';
import { type HarnessWorkerProcess, spawnHarnessWorker, stopHarnessWorkers } from './testing/harness-workers.ts';

const { scenario } = resolveScenario('smoke');
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

describe('a drive on the queue, its runs on mock replicas', () => {
  it("judges each run's requests over both replicas, a refusal only the second gave failing its run", async () => {
    replicas = await startReplicas(scenario);
    const [near, other] = replicas as [MockServer, MockServer];
    await sendElsewhere(other);
    const worker = spawnHarnessWorker(environment.address, 'drive-replicas');
    workers.push(worker);
    await worker.ready;

    const summary = await runScenario(scenario, {
      environment,
      driveElsewhere: queueDriver('drive-replicas'),
      mockReplicas: [near.url, other.url],
    });
    expectJudgedOverBoth(summary, near);
    expect(summary.passed).toBe(false);
  }, 90_000);
});
