/**
 * The worker longrun starts: it polls LONGRUN_TASK_QUEUE on TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE
 * until SIGTERM (the SDK's default shutdown signals).
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import * as activities from './activities.ts';
import { agentsPlugin, bundlePath } from './plugin.ts';
import * as weatherActivities from './weather-activities.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

async function main(): Promise<void> {
  const connection = await NativeConnection.connect({ address: required('TEMPORAL_ADDRESS') });
  const maxCached = process.env.LONGRUN_MAX_CACHED_WORKFLOWS;
  const worker = await Worker.create({
    connection,
    namespace: required('TEMPORAL_NAMESPACE'),
    taskQueue: required('LONGRUN_TASK_QUEUE'),
    workflowBundle: { codePath: bundlePath },
    activities: { ...activities, ...weatherActivities },
    plugins: [agentsPlugin()],
    ...(maxCached !== undefined ? { maxCachedWorkflows: Number(maxCached) } : {}),
  });
  try {
    await worker.run();
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`agents-sdk worker: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
