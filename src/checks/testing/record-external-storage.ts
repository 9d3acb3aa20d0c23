/**
 * Records the External Storage fixture (src/checks/testing/external-storage/): one run of the
 * real v1 kernel on the embedded Temporal server, its workers and client offloading every
 * payload over 16 KiB through the SDK's `ExternalStorage` to an in-memory driver, saved with the
 * objects stored; and its inline twin, the same run (same seed, same run id, the same input) on
 * a worker without External Storage. Recorded again with
 * `node --import tsx src/checks/testing/record-external-storage.ts` (about a minute); the files
 * are replaced.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Client } from '@temporalio/client';
import { ExternalStorage } from '@temporalio/common/lib/converter/extstore.js';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { startInProcessMocks } from '../../../mocks/index.ts';
import { WORKFLOW_TYPE } from '../../contract/kernel-api.ts';
import { startEnvironment } from '../../environment/index.ts';
import { activitiesConfigFor, createActivities } from '../../kernel/index.ts';
import { activityDataConverter, workflowBundle } from '../../kernel/workers/workflow-bundles.ts';
import { runInputOf } from '../../runner/launch.ts';
import { mockOptionsOf } from '../../scenario/mock-options.ts';
import { scenarioSchema } from '../../scenario/scenario-schema.ts';
import { MemoryStorageDriver } from './memory-storage-driver.ts';

const FIXTURE_DIR = fileURLToPath(new URL('./external-storage/', import.meta.url));
/** Payloads over this many bytes are offloaded: the requests from the fourth turn or so, compaction's input, the ContinueAsNew input. */
const RECORDED_THRESHOLD_BYTES = 16 * 1024;

/** Crosses the compaction trigger and continues as new (smallScenario's limits), no faults. */
const scenario = scenarioSchema.parse({
  name: 'extstore',
  seed: 36,
  limits: { compactionTriggerBytes: 40_000, continueAsNewBytes: 150_000, tailMaxBytes: 8_192 },
  runs: { count: 1, concurrency: 1, maxTurns: 30, timeout: '90s' },
  shape: { overrides: { turns: 14, bytesPerTurn: 2_048 } },
  expect: [{ on: 'v1', hold: 'all' }],
});

async function record(offload: boolean): Promise<void> {
  const env = await startEnvironment();
  const mocks = startInProcessMocks(mockOptionsOf(scenario));
  const driver = new MemoryStorageDriver();
  const externalStorage = offload
    ? { externalStorage: new ExternalStorage({ drivers: [driver], payloadSizeThreshold: RECORDED_THRESHOLD_BYTES }) }
    : {};
  try {
    const taskQueue = `extstore-${offload ? 'offloaded' : 'inline'}`;
    const worker = await Worker.create({
      connection: env.workerConnection,
      namespace: env.namespace,
      taskQueue,
      workflowBundle: await workflowBundle('v1'),
      activities: createActivities(activitiesConfigFor('v1', { modelBaseUrl: mocks.modelBaseUrl, sandboxBaseUrl: mocks.sandboxBaseUrl })),
      dataConverter: { ...activityDataConverter(), ...externalStorage },
    });
    const client = new Client({ connection: env.client.connection, namespace: env.namespace, dataConverter: externalStorage });
    const runId = `${scenario.name}-run-0000`;
    const workflowId = `${runId}-${offload ? 'offloaded' : 'inline'}`;
    const handle = await client.workflow.start(WORKFLOW_TYPE, {
      taskQueue,
      workflowId,
      args: [runInputOf(scenario, runId, mocks.planFor(runId))],
    });
    await worker.runUntil(handle.result());
    const name = offload ? 'offloaded' : 'inline';
    let runIdOfExecution: string | undefined = handle.firstExecutionRunId;
    for (let execution = 1; runIdOfExecution; execution++) {
      const history = await client.workflow.getHandle(workflowId, runIdOfExecution).fetchHistory();
      const file = join(FIXTURE_DIR, `${name}-execution-${execution}.json.gz`);
      writeFileSync(file, gzipSync(historyToJSON(history as temporal.api.history.v1.History)));
      console.log(`wrote ${file}`);
      runIdOfExecution = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    }
    if (offload) {
      const file = join(FIXTURE_DIR, 'offloaded-stored.json.gz');
      writeFileSync(file, gzipSync(`${JSON.stringify(driver.dump(), null, 1)}\n`));
      console.log(`wrote ${file} (${driver.dump().length} objects)`);
    }
  } finally {
    mocks.close();
    await env.teardown();
  }
}

await record(true);
await record(false);
