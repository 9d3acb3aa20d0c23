/**
 * External Storage through the SDK's public path on the embedded Temporal server: a Client and
 * a Worker whose data converters offload to the object store run a workflow whose argument,
 * activity input and output, and result are past the blob limit. The history holds references;
 * the result comes back whole, and fails to once its object is deleted.
 */
import { Client, WorkflowFailedError } from '@temporalio/client';
import { ExternalStorage, type Payload } from '@temporalio/common';
import { decodeReferencePayload, isReferencePayload } from '@temporalio/common/lib/internal-non-workflow/index.js';
import { S3StorageDriver } from '@temporalio/external-storage-s3';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Environment, type ObjectStore, startEnvironment, startObjectStore } from '../index.ts';

const workflowsPath = new URL('../testing/workflows.ts', import.meta.url).pathname;
const TASK_QUEUE = 'offload';
const noop = () => {};
const quiet = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };

let environment: Environment;
let store: ObjectStore;
let client: Client;
let worker: Worker;
let running: Promise<void>;
let bundle: WorkflowBundleWithSourceMap;
beforeAll(async () => {
  [environment, store, bundle] = await Promise.all([
    startEnvironment({}),
    startObjectStore({ onProgress: noop }),
    bundleWorkflowCode({ workflowsPath, logger: quiet }),
  ]);
  const dataConverter = {
    externalStorage: new ExternalStorage({
      drivers: [new S3StorageDriver({ client: store.driverClient(), bucket: store.bucket })],
      payloadSizeThreshold: 256 * 1024,
    }),
  };
  client = new Client({ connection: environment.client.connection, namespace: environment.namespace, dataConverter });
  worker = await Worker.create({
    connection: environment.workerConnection,
    namespace: environment.namespace,
    taskQueue: TASK_QUEUE,
    workflowBundle: bundle,
    activities: { echo: async (payload: string) => payload },
    dataConverter,
  });
  running = worker.run();
});
afterAll(async () => {
  if (worker) {
    worker.shutdown();
    await running;
  }
  await store?.stop();
  await environment?.teardown();
});

/** Every payload of the history as the server holds it, no data converter in between, by event type. */
async function storedPayloads(workflowId: string): Promise<Array<{ event: string; payload: Payload }>> {
  const { history } = await environment.client.workflowService.getWorkflowExecutionHistory({
    namespace: environment.namespace,
    execution: { workflowId },
  });
  return (history?.events ?? []).flatMap((event) => {
    const payloads = [
      ...(event.workflowExecutionStartedEventAttributes?.input?.payloads ?? []),
      ...(event.activityTaskScheduledEventAttributes?.input?.payloads ?? []),
      ...(event.activityTaskCompletedEventAttributes?.result?.payloads ?? []),
      ...(event.workflowExecutionCompletedEventAttributes?.result?.payloads ?? []),
    ];
    return payloads.map((payload) => ({ event: String(event.eventType), payload: payload as Payload }));
  });
}

// 3 MiB: past the server's 2 MiB blob limit, which a reference stays far below.
const name = (seed: string) => `${seed} контекст 上下文 🧠 `.repeat((3 * 1024 * 1024) / 32);

describe('External Storage through a Client and a Worker, on the embedded server', () => {
  it('offloads every payload past the threshold and gives the result back whole', async () => {
    const workflowId = 'offload-greet';
    const before = await store.usage();
    const input = name('round trip');
    const result = await client.workflow.execute('greet', { taskQueue: TASK_QUEUE, workflowId, args: [input] });
    expect(result === `hello ${input}`).toBe(true);

    const stored = await storedPayloads(workflowId);
    // Start input, activity input, activity result, workflow result: each a small reference.
    expect(stored).toHaveLength(4);
    for (const { payload } of stored) {
      expect(isReferencePayload(payload)).toBe(true);
      expect(payload.data?.length).toBeLessThan(1024);
    }
    const keys = stored.map(({ payload }) => decodeReferencePayload(payload).claimData.key as string);
    expect(keys[0]).toMatch(new RegExp(`^v0/ns/${environment.namespace}/wt/greet/wi/${workflowId}/ri/null/d/sha256/[0-9a-f]{64}$`));
    // The activity's input is the start input's bytes: one object per key, the same hash.
    expect(keys[1]?.split('/').at(-1)).toBe(keys[0]?.split('/').at(-1));
    const sizes = stored.map(({ payload }) => decodeReferencePayload(payload).sizeBytes);
    const after = await store.usage();
    const distinct = new Map(keys.map((key, i) => [key, sizes[i] ?? 0]));
    expect(after).toEqual({
      objects: before.objects + distinct.size,
      bytes: before.bytes + [...distinct.values()].reduce((a, b) => a + b, 0),
    });
  });

  it('is refused by the server without External Storage: the offload is what keeps the start under the limit', async () => {
    const plain = new Client({ connection: environment.client.connection, namespace: environment.namespace });
    const refused = await plain.workflow.start('greet', { taskQueue: TASK_QUEUE, workflowId: 'inline-greet', args: [name('inline')] }).then(
      () => 'started',
      (e: Error) => `${e.message}: ${(e.cause as Error | undefined)?.message}`,
    );
    expect(refused).toBe('Failed to start Workflow: 3 INVALID_ARGUMENT: Blob data size exceeds limit.');
  });

  it("fails to give the result once its object is deleted, naming the bucket, the key and the store's error", async () => {
    const workflowId = 'offload-deleted';
    const handle = await client.workflow.start('greet', { taskQueue: TASK_QUEUE, workflowId, args: [name('deleted')] });
    await handle.result();
    const resultRef = (await storedPayloads(workflowId)).at(-1)?.payload as Payload;
    const { key } = decodeReferencePayload(resultRef).claimData as { key: string };
    expect(await store.deleteObjects({ keyContains: key })).toEqual([key]);

    const error = await handle.result().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).not.toBeInstanceOf(WorkflowFailedError);
    expect(error?.message).toBe(
      `S3StorageDriver retrieve failed [bucket=${store.bucket}, key=${key}, endpoint=${store.endpoint}, region=us-east-1]`,
    );
    expect((error?.cause as Error | undefined)?.message).toBe(`S3 GET ${store.bucket}/${key} at ${store.endpoint}: NoSuchKey (HTTP 404)`);
  });
});
