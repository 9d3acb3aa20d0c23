/**
 * In-process workers, one per kernel binary in play, each on its own task queue, with the
 * kernel's activities pointed at the mocks.
 */
import { Worker } from '@temporalio/worker';
import type { Environment } from '../../environment/index.ts';
import { type ActivitiesConfig, activitiesConfigFor, type BinaryId, createActivities } from '../index.ts';
import { externalStorageOf, type OffloadTarget, workerOffload } from './offload.ts';
import { activityDataConverter, workflowBundle } from './workflow-bundles.ts';

export interface KernelWorkers {
  taskQueue(binary: BinaryId): string;
  /** Stops every worker and waits for them to drain. */
  stop(): Promise<void>;
  /** Rejects if a worker dies. */
  failed: Promise<never>;
}

export interface KernelWorkerOptions {
  /** Cached workflows per worker; 0 forces a replay from history on every task. Default: the SDK's (from the heap size). */
  maxCachedWorkflows?: number;
  /** The scenario's External Storage: offloading binaries store there, every other binary reads. Default: none. */
  offload?: OffloadTarget;
}

/**
 * The workflow cache of a worker that serves `runsInFlight` runs at once: twice that, so a run
 * keeps its place while another's eviction is pending. Bounded by the scenario rather than by
 * the SDK's default (from the heap size: ~2,000 workflows on this machine), so a worker's memory
 * for cached runs (each holds its conversation, up to the trigger and a tail) has a known ceiling.
 */
export function workflowCacheSize(runsInFlight: number): number {
  return Math.max(4, 2 * runsInFlight);
}

/** A workflow worker's heaps without cached runs (the SDK, the bundle, tsx), and each cached run's share, MiB. */
const WORKER_BASE_HEAP_MIB = 192;
const HEAP_MIB_PER_CACHED_RUN = 8;

/**
 * The V8 old-space limit (`--max-old-space-size`, MiB, for each of the process's isolates) of a
 * workflow worker process with `cachedWorkflows` in its cache: a cached run holds its conversation
 * (compacted at the trigger, 1.2 MB in production), a turn's request built from it, its journal's
 * head and the SDK's state: 8 MiB leaves room for a few copies. V8
 * lets a heap grow further past its live size before a full collection the larger its limit
 * (4 GiB by default on a 24 GiB machine): in the nightly soak the workflow thread's heap swung
 * 32-60 MiB with 25-36 MiB live; at 320 MiB, 26-43.
 */
export function workflowWorkerHeapMiB(cachedWorkflows: number): number {
  return WORKER_BASE_HEAP_MIB + HEAP_MIB_PER_CACHED_RUN * cachedWorkflows;
}

/** An activity worker's heaps without activities in flight (the SDK, tsx), and each run's share, MiB. */
const ACTIVITY_WORKER_BASE_HEAP_MIB = 112;
const HEAP_MIB_PER_RUN_IN_FLIGHT = 16;

/**
 * The V8 old-space limit of an activity worker process serving `runsInFlight` runs at once. A
 * run has one model call in flight at a time, holding its request (up to the 2 MiB blob limit)
 * decoded, encoded and sent: 16 MiB leaves room for several copies. Unbounded, V8 let a max-size
 * run's activity worker grow to 275-316 MB of garbage it had no reason to collect yet; at 128 MiB
 * it peaked at 164-213 MB (docs/benchmarks.md, "Scale: a max-size run").
 */
export function activityWorkerHeapMiB(runsInFlight: number): number {
  return ACTIVITY_WORKER_BASE_HEAP_MIB + HEAP_MIB_PER_RUN_IN_FLIGHT * runsInFlight;
}

export async function startKernelWorkers(
  env: Environment,
  binaries: readonly BinaryId[],
  activities: ActivitiesConfig,
  queuePrefix: string,
  options: KernelWorkerOptions = {},
): Promise<KernelWorkers> {
  const queues = new Map(binaries.map((binary) => [binary, `${queuePrefix}-${binary}`]));
  const workers = await Promise.all(
    binaries.map(async (binary) =>
      Worker.create({
        connection: env.workerConnection,
        namespace: env.namespace,
        taskQueue: queues.get(binary) as string,
        workflowBundle: await workflowBundle(binary),
        activities: createActivities(activitiesConfigFor(binary, activities)),
        dataConverter: {
          ...activityDataConverter(),
          ...(options.offload ? { externalStorage: externalStorageOf(workerOffload(binary, options.offload)) } : {}),
        },
        ...(options.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: options.maxCachedWorkflows } : {}),
      }),
    ),
  );
  const running = workers.map((worker) => worker.run());
  const failed = Promise.race(running).then(() => {
    throw new Error('a kernel worker stopped unexpectedly');
  });
  failed.catch(() => {});
  return {
    taskQueue(binary) {
      const queue = queues.get(binary);
      if (!queue) throw new Error(`no worker for binary ${binary}`);
      return queue;
    },
    async stop() {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      await Promise.allSettled(running);
    },
    failed,
  };
}
