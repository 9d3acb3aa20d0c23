/**
 * `longrun worker`: one kernel binary's worker on a task queue of a real cluster, its model and
 * sandbox calls pointed at a longrun mock server: the worker of the docker-compose soak, and a
 * way to put a binary under someone else's load.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { WORKER_ENV } from '../../contract/worker-env.ts';
import { clusterSettingsFromEnv, describeCluster, installRuntime, workerConnectionOptions } from '../../environment/index.ts';
import { activitiesConfigFor, BINARIES, createActivities } from '../../kernel/index.ts';
import { externalStorageOf, offloadThresholdBytes, workerOffload } from '../../kernel/workers/offload.ts';
import { activityDataConverter, workflowBundle } from '../../kernel/workers/workflow-bundles.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT } from '../exit-code.ts';
import { defineCommand, valueFlag, wholeNumber } from '../flags.ts';
import { UsageError } from '../usage-error.ts';
import { binaryFlag } from './binary-flag.ts';

const MOCK_URL = 'http://host:port';

const FLAGS = {
  'task-queue': valueFlag({ value: 'Q', help: 'the task queue to poll', required: true }),
  'mock-url': valueFlag({
    value: 'URL',
    help: `a \`longrun mock-server\` base URL: the model API at URL/v1, the sandbox at URL/sandbox/v1; default: ${WORKER_ENV.mockUrl}, the host's nearest replica`,
    parse: mockUrlOf,
    want: MOCK_URL,
  }),
  binary: binaryFlag('the kernel binary'),
  store: valueFlag({
    value: 'URL',
    help: 'External Storage for a binary that offloads (v0-offload, v1-offload): an S3 endpoint and bucket, http://host:port/bucket',
    parse: (raw) => {
      const match = /^(https?:\/\/[^\s/]+)\/([a-z0-9.-]{3,63})\/?$/.exec(raw);
      return match ? { endpoint: match[1] as string, bucket: match[2] as string } : undefined;
    },
    want: 'http://host:port/bucket',
  }),
  'max-cached-workflows': valueFlag({
    value: 'N',
    help: 'workflows kept in the cache; 0 replays every workflow task from history',
    parse: wholeNumber(0),
    want: 'a whole number >= 0',
  }),
};

export const workerCommand = defineCommand({
  ...COMMAND_LINES.worker,
  flags: FLAGS,
  positionals: { min: 0, max: 0, names: '' },
  notes: 'Needs TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE, TLS or API key as the cluster wants).',
  async run({ values }) {
    const { binary, 'task-queue': taskQueue, 'max-cached-workflows': maxCachedWorkflows, store } = values;
    const mockUrl = values['mock-url'] ?? mockUrlFromEnv();
    // Without its store an offloading binary would run as its release, and its histories would say otherwise.
    if (BINARIES[binary].offload && !store)
      throw new UsageError(`--binary ${binary} offloads to External Storage: give --store http://host:port/bucket`);
    const offload = store
      ? { externalStorage: externalStorageOf(workerOffload(binary, { ...store, thresholdBytes: offloadThresholdBytes() })) }
      : {};
    const cluster = clusterSettingsFromEnv();
    if (!cluster) throw new UsageError('TEMPORAL_ADDRESS is not set: the worker needs a cluster to poll');

    installRuntime();
    let connection: NativeConnection;
    try {
      connection = await NativeConnection.connect({
        address: cluster.address,
        ...cluster.connectionOptions,
        ...workerConnectionOptions(cluster.address),
      });
    } catch (error) {
      throw new Error(`cannot reach Temporal at ${cluster.address}: ${(error as Error).message.split('\n')[0]}`);
    }
    await requireNamespace(connection, cluster.namespace, describeCluster(cluster));
    const worker = await Worker.create({
      connection,
      namespace: cluster.namespace,
      taskQueue,
      workflowBundle: await workflowBundle(binary),
      activities: createActivities(activitiesConfigFor(binary, { modelBaseUrl: `${mockUrl}/v1`, sandboxBaseUrl: `${mockUrl}/sandbox/v1` })),
      dataConverter: { ...activityDataConverter(), ...offload },
      ...(maxCachedWorkflows !== undefined ? { maxCachedWorkflows } : {}),
    });
    const stop = () => worker.shutdown();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    console.log(`longrun worker: binary ${binary} on task queue ${taskQueue} at ${describeCluster(cluster)}, mocks at ${mockUrl}`);
    try {
      await worker.run();
    } finally {
      await connection.close();
    }
    return EXIT.passed;
  },
});

/** The URL without its trailing slashes; undefined when it is not an http(s) URL. */
function mockUrlOf(raw: string): string | undefined {
  return /^https?:\/\/[^\s/]+/.test(raw) ? raw.replace(/\/+$/, '') : undefined;
}

/** The mock replica the host is given in its environment (a DaemonSet's on the node, a sidecar's), when no flag names one. */
function mockUrlFromEnv(): string {
  const raw = process.env[WORKER_ENV.mockUrl];
  if (!raw)
    throw new UsageError(`--mock-url is required, or ${WORKER_ENV.mockUrl}: the mock server the worker's model and sandbox calls go to`);
  const url = mockUrlOf(raw);
  if (url === undefined) throw new UsageError(`${WORKER_ENV.mockUrl} ${raw}: want ${MOCK_URL}`);
  return url;
}

/** A worker on a namespace the cluster lacks would poll in vain forever: it does not start. */
async function requireNamespace(connection: NativeConnection, namespace: string, where: string): Promise<void> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
  } catch (error) {
    await connection.close();
    throw new Error(`the worker cannot start: namespace ${namespace} on ${where}: ${(error as Error).message.split('\n')[0]}`);
  }
}
