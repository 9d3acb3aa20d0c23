/**
 * `longrun harness-worker`: serves a harness task queue, driving and judging the runs a
 * `longrun run` or `soak --drive-on`/`--judge-on` hands it (src/distributed/), until stopped. Any number of them, on any
 * number of machines, share the queue.
 */

import { DEFAULT_HARNESS_QUEUE, startHarnessWorker } from '../../distributed/harness-worker.ts';
import { clusterSettingsFromEnv, describeCluster, startEnvironment } from '../../environment/index.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT } from '../exit-code.ts';
import { defineCommand, valueFlag } from '../flags.ts';

const DEFAULT_ADDRESS = '127.0.0.1:7233';

const FLAGS = {
  address: valueFlag({
    value: 'HOST:PORT',
    parse: (raw) => (/^[^\s:/]+:\d{1,5}$/.test(raw) || /^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(raw) ? raw : undefined),
    want: 'host:port',
    help: `the cluster the runs run on (default TEMPORAL_ADDRESS, else ${DEFAULT_ADDRESS}); TLS and API key from TEMPORAL_TLS_* and TEMPORAL_API_KEY`,
  }),
  namespace: valueFlag({
    value: 'NS',
    help: "the harness task queue's namespace (default TEMPORAL_NAMESPACE, else default); each run is read in its own namespace",
  }),
  'task-queue': valueFlag({ value: 'Q', help: 'the harness task queue to serve', default: DEFAULT_HARNESS_QUEUE }),
};

export const harnessWorkerCommand = defineCommand({
  ...COMMAND_LINES['harness-worker'],
  flags: FLAGS,
  positionals: { min: 0, max: 0, names: '' },
  async run({ values }) {
    const cluster = clusterSettingsFromEnv({
      ...process.env,
      TEMPORAL_ADDRESS: values.address ?? process.env.TEMPORAL_ADDRESS ?? DEFAULT_ADDRESS,
      ...(values.namespace ? { TEMPORAL_NAMESPACE: values.namespace } : {}),
    });
    if (!cluster) throw new Error('no cluster address');
    const env = await startEnvironment({ cluster });
    try {
      // A worker on a namespace the cluster lacks would poll in vain forever.
      await env.client.workflowService.describeNamespace({ namespace: cluster.namespace }).catch((error: Error) => {
        throw new Error(`namespace ${cluster.namespace} on ${describeCluster(cluster)}: ${error.message.split('\n')[0]}`);
      });
      const worker = await startHarnessWorker(env, values['task-queue']);
      const stop = () => worker.shutdown();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      console.log(`longrun harness-worker: driving and judging on task queue ${values['task-queue']} at ${describeCluster(cluster)}`);
      await worker.run();
    } finally {
      await env.teardown();
    }
    return EXIT.passed;
  },
});
