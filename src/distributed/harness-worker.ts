/**
 * A harness worker: serves a harness task queue with the judging and drive workflows and their
 * activities, on the cluster the runs run on. Any number of them, in any number of processes, share one queue.
 */
import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { Environment } from '../environment/index.ts';
import { activityDataConverter, bundleOf } from '../kernel/workers/workflow-bundles.ts';
import { JUDGED_AT_ONCE } from '../runner/judging-pool.ts';
import { holdReplayers } from '../runner/replay.ts';
import { siblingModule } from '../shared/package-paths.ts';
import { driveActivities } from './drive-activities.ts';
import { judgingActivities } from './judging-activity.ts';

/** The harness task queue `longrun harness-worker` and `--judge-on` use when none is named. */
export const DEFAULT_HARNESS_QUEUE = 'longrun-harness';

export interface HarnessWorker {
  /** Serves the queue until `shutdown`; its replay workers end with it. */
  run(): Promise<void>;
  shutdown(): void;
}

/** A worker on `taskQueue` of `env`'s namespace, judging as many runs at once as one longrun process does. */
export async function startHarnessWorker(
  env: Pick<Environment, 'client' | 'workerConnection' | 'namespace'>,
  taskQueue: string,
): Promise<HarnessWorker> {
  const clientOf = namespacedClients(env.client);
  const worker = await Worker.create({
    connection: env.workerConnection,
    namespace: env.namespace,
    taskQueue,
    workflowBundle: await bundleOf(siblingModule(import.meta.url, './harness-workflows.ts')),
    activities: { ...judgingActivities(clientOf), ...driveActivities(clientOf) },
    dataConverter: activityDataConverter(),
    maxConcurrentActivityTaskExecutions: JUDGED_AT_ONCE,
  });
  return {
    async run() {
      const release = holdReplayers();
      try {
        await worker.run();
      } finally {
        await release();
      }
    },
    shutdown: () => worker.shutdown(),
  };
}

/** Clients of the cluster `client` reaches, one a namespace, made when first asked for. */
function namespacedClients(client: Client): (namespace: string) => Client {
  const clients = new Map<string, Client>([[client.options.namespace, client]]);
  return (namespace) => {
    const known = clients.get(namespace) ?? new Client({ connection: client.connection, namespace });
    clients.set(namespace, known);
    return known;
  };
}
