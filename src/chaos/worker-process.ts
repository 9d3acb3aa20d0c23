/**
 * A kernel worker in its own process, so that chaos can SIGKILL it: connects to the Temporal
 * frontend and runs, on one task queue, either one binary's workflows or the kernel's
 * activities (pointed at the mocks' HTTP server), reporting activities over IPC. A standby
 * waits for `go` before it polls. SIGTERM shuts it down gracefully; the loss of its parent (the
 * IPC channel closing) kills it at once.
 *
 *   node --import tsx src/chaos/worker-process.ts '<WorkerProcessConfig as JSON>'
 */
import { type ActivityInboundCallsInterceptor, NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { installRuntime, workerConnectionOptions } from '../environment/index.ts';
import { createActivities } from '../kernel/index.ts';
import { externalStorageOf, type WorkerOffload } from '../kernel/workers/offload.ts';
import { activityDataConverter } from '../kernel/workers/workflow-bundles.ts';
import {
  type ActivityReport,
  type WorkerCommand,
  type WorkerMessage,
  type WorkerProcessConfig,
  type WorkerRole,
  workerIdentity,
} from './worker-messages.ts';

/** Sticky tasks of a killed worker move to the normal queue after this (the SDK's default is 10 s). */
const STICKY_TIMEOUT = '2s';
/** Activities in flight at a graceful shutdown get this long to finish. */
const SHUTDOWN_GRACE = '10s';

function send(message: WorkerMessage): void {
  process.send?.(message);
}

function reportOf(key: string, activityType: string, attempt: number, input: unknown): ActivityReport {
  const { runId, turn } = (input ?? {}) as { runId?: unknown; turn?: unknown };
  return {
    key,
    activityType,
    attempt,
    ...(typeof runId === 'string' ? { runId } : {}),
    ...(typeof turn === 'number' ? { turn } : {}),
  };
}

/** Every activity is reported as it starts and as it ends. */
function reportingActivities(): NonNullable<WorkerOptions['interceptors']>['activity'] {
  let sequence = 0;
  return [
    (ctx) => {
      const inbound: ActivityInboundCallsInterceptor = {
        async execute(input, next) {
          const key = `${process.pid}-${++sequence}`;
          send({ type: 'activity-started', ...reportOf(key, ctx.info.activityType, ctx.info.attempt, input.args[0]) });
          try {
            return await next(input);
          } finally {
            send({ type: 'activity-finished', key });
          }
        },
      };
      return { inbound };
    },
  ];
}

function roleOptions(role: WorkerRole, offload: WorkerOffload | undefined): Partial<WorkerOptions> {
  const externalStorage = offload ? { externalStorage: externalStorageOf(offload) } : {};
  if (role.runs === 'activities') {
    return {
      activities: createActivities(role.activities),
      dataConverter: { ...activityDataConverter(), ...externalStorage },
      interceptors: { activity: reportingActivities() },
    };
  }
  return {
    workflowBundle: { codePath: role.bundlePath },
    ...(offload ? { dataConverter: externalStorage } : {}),
    stickyQueueScheduleToStartTimeout: STICKY_TIMEOUT,
    ...(role.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: role.maxCachedWorkflows } : {}),
  };
}

function deploymentOptions(deployment: WorkerProcessConfig['deployment']): Partial<WorkerOptions> {
  if (!deployment) return {};
  const { name: deploymentName, buildId, behavior } = deployment;
  return {
    workerDeploymentOptions: { useWorkerVersioning: true, version: { deploymentName, buildId }, defaultVersioningBehavior: behavior },
  };
}

/** A crash (SIGKILL, no shutdown) at a moment with nothing in flight, so nothing waits for a timeout. */
function crashWhenQuiet(worker: Worker, quietMs: number): void {
  let quietSince = Date.now();
  setInterval(() => {
    const status = worker.getStatus();
    if (status.numInFlightWorkflowActivations + status.numInFlightActivities > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) process.kill(process.pid, 'SIGKILL');
  }, 1);
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as WorkerProcessConfig;
  // The harness is gone: nothing must outlive it.
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
  installRuntime();
  const connection = await NativeConnection.connect({ address: config.address, ...workerConnectionOptions(config.address) });
  const worker = await Worker.create({
    connection,
    namespace: config.namespace,
    taskQueue: config.taskQueue,
    identity: workerIdentity(config.role, process.pid),
    shutdownGraceTime: SHUTDOWN_GRACE,
    ...roleOptions(config.role, config.offload),
    ...deploymentOptions(config.deployment),
  });
  let go: () => void = () => {};
  process.on('message', (command: WorkerCommand) => {
    if (command.type === 'go') go();
    else crashWhenQuiet(worker, command.quietMs);
  });
  if (config.standby) {
    const told = new Promise<void>((resolve) => {
      go = resolve;
    });
    send({ type: 'ready' });
    await told;
  }
  process.once('SIGTERM', () => worker.shutdown());
  const running = worker.run();
  send(config.standby ? { type: 'polling' } : { type: 'ready' });
  await running;
  await connection.close();
  process.exit(0);
}

main().catch((error: Error) => {
  process.stderr.write(`longrun worker: ${error.message.split('\n')[0]}\n`);
  process.exit(1);
});
