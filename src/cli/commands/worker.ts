/**
 * `longrun worker`: one kernel binary's worker on a task queue of a real cluster, its model and
 * sandbox calls pointed at a longrun mock server: the worker of the docker-compose soak, and a
 * way to put a binary under someone else's load.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { clusterSettingsFromEnv, describeCluster, installRuntime } from '../../environment/index.ts';
import { BINARY_IDS, CURRENT_BINARY, createActivities, isBinaryId } from '../../kernel/index.ts';
import { workflowBundle } from '../../kernel/workers/workflow-bundles.ts';
import type { Command } from '../command.ts';
import { parseCommandArgs } from '../parse-args.ts';
import { UsageError } from '../usage-error.ts';

export const workerCommand: Command = {
  usage: 'worker --task-queue Q --mock-url URL [--binary B]',
  summary: "run a kernel binary's worker on TEMPORAL_ADDRESS until stopped",
  help: `Options:
  --task-queue Q    the task queue to poll (required)
  --mock-url URL    a \`longrun mock-server\` base URL: the model API at URL/v1, the sandbox at URL/sandbox/v1 (required)
  --binary B        the kernel binary (default ${CURRENT_BINARY}; one of ${BINARY_IDS.join(', ')})
  --max-cached-workflows N   0 replays every workflow task from history

Needs TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE, TLS or API key as the cluster wants).`,
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      {
        binary: { type: 'string' },
        'task-queue': { type: 'string' },
        'mock-url': { type: 'string' },
        'max-cached-workflows': { type: 'string' },
      },
      { min: 0, max: 0, names: '' },
    );
    const binary = values.binary ?? CURRENT_BINARY;
    if (!isBinaryId(binary)) throw new UsageError(`--binary ${binary}: unknown (known: ${BINARY_IDS.join(', ')})`);
    const taskQueue = values['task-queue'];
    if (!taskQueue) throw new UsageError('--task-queue is required');
    const mockUrl = values['mock-url']?.replace(/\/+$/, '');
    if (!mockUrl || !/^https?:\/\/[^\s/]+/.test(mockUrl))
      throw new UsageError(`--mock-url ${values['mock-url'] ?? ''}: want http://host:port`);
    const cached = values['max-cached-workflows'];
    const maxCachedWorkflows = cached === undefined ? undefined : Number(cached);
    if (maxCachedWorkflows !== undefined && !(Number.isInteger(maxCachedWorkflows) && maxCachedWorkflows >= 0)) {
      throw new UsageError(`--max-cached-workflows ${cached}: want a whole number >= 0`);
    }
    const cluster = clusterSettingsFromEnv();
    if (!cluster) throw new UsageError('TEMPORAL_ADDRESS is not set: the worker needs a cluster to poll');

    installRuntime();
    let connection: NativeConnection;
    try {
      connection = await NativeConnection.connect({ address: cluster.address, ...cluster.connectionOptions });
    } catch (error) {
      throw new Error(`cannot reach Temporal at ${cluster.address}: ${(error as Error).message.split('\n')[0]}`);
    }
    const worker = await Worker.create({
      connection,
      namespace: cluster.namespace,
      taskQueue,
      workflowBundle: await workflowBundle(binary),
      activities: createActivities({ modelBaseUrl: `${mockUrl}/v1`, sandboxBaseUrl: `${mockUrl}/sandbox/v1` }),
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
    return 0;
  },
};
