/**
 * The kernel's own workers for a pool: per task queue, a child process running one binary's
 * workflows (from its bundle, written once to a file) and one running the kernel's activities.
 * They can be started as warm standbys, and they report every activity over IPC: a run starts a
 * turn when its turn's call_model starts (attempt 1).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ActivitiesConfig, activitiesConfigFor, type BinaryId, isBinaryId } from '../kernel/index.ts';
import { type OffloadTarget, type WorkerOffload, workerOffload } from '../kernel/workers/offload.ts';
import { workflowBundle } from '../kernel/workers/workflow-bundles.ts';
import { ownedTempDir } from '../shared/owned-temp-dir.ts';
import { ChildWorker } from './child-worker.ts';
import { kernelBinaryOf } from './served-binaries.ts';
import type { QueueWorker, Standby, TurnListener, WorkerKind } from './worker-kind.ts';
import type { WorkerRole } from './worker-messages.ts';

export interface KernelWorkerKindOptions {
  /** gRPC host:port the workers connect to (the frontend, or a proxy in front of it). */
  address: string;
  namespace: string;
  activities: Pick<ActivitiesConfig, 'modelBaseUrl' | 'sandboxBaseUrl'>;
  /** 0 replays every workflow task from history. */
  maxCachedWorkflows?: number;
  /** The runs in flight at once (the scenario's concurrency): the activity workers' heap limit follows it. */
  runsInFlight?: number;
  /** The scenario's External Storage, as the workers reach it (through a proxy for network faults on it). */
  offload?: OffloadTarget;
}

export class KernelWorkerKind implements WorkerKind<ChildWorker> {
  readonly separateActivities = true;
  private readonly turnListeners = new Set<TurnListener>();
  private readonly bundles = new Map<BinaryId, Promise<string>>();
  private readonly bundleDir = ownedTempDir('longrun-bundles-');

  constructor(private readonly options: KernelWorkerKindOptions) {}

  start(wanted: QueueWorker, taskQueue: string): Promise<ChildWorker> {
    return this.startChild(wanted, taskQueue, false);
  }

  async startStandby(wanted: QueueWorker, taskQueue: string): Promise<Standby<ChildWorker>> {
    const worker = await this.startChild(wanted, taskQueue, true);
    return { worker, go: () => worker.go() };
  }

  onTurnStarted(listener: TurnListener): () => void {
    this.turnListeners.add(listener);
    return () => this.turnListeners.delete(listener);
  }

  binaryOfIdentity(identity: string): BinaryId | undefined {
    return kernelBinaryOf(identity);
  }

  close(): void {
    rmSync(this.bundleDir, { recursive: true, force: true });
  }

  private async startChild(wanted: QueueWorker, taskQueue: string, standby: boolean): Promise<ChildWorker> {
    const worker = await ChildWorker.start({
      address: this.options.address,
      namespace: this.options.namespace,
      taskQueue,
      role: await this.roleOf(wanted),
      standby,
      ...this.offloadOf(wanted),
      ...(wanted.version
        ? {
            deployment: {
              name: taskQueue,
              buildId: wanted.version.build,
              behavior: wanted.version.behavior === 'pinned' ? 'PINNED' : 'AUTO_UPGRADE',
            },
          }
        : {}),
    });
    worker.onActivityStarted((report) => {
      if (report.activityType !== 'call_model' || report.attempt !== 1 || report.runId === undefined || report.turn === undefined) return;
      for (const listener of this.turnListeners) listener(report.runId, report.turn);
    });
    return worker;
  }

  /** A worker stores when the binary it runs offloads; an activity worker, when its queue's binary (the one its runs started on) does. */
  private offloadOf({ queue, runs }: QueueWorker): { offload?: WorkerOffload } {
    const { offload } = this.options;
    if (!offload) return {};
    const binary = runs === 'activities' ? queue : runs;
    return { offload: isBinaryId(binary) ? workerOffload(binary, offload) : { target: offload, stores: false } };
  }

  private async roleOf({ queue, runs }: QueueWorker): Promise<WorkerRole> {
    // A queue is named by the binary its runs start on: a control broken in its activities keeps them there.
    if (runs === 'activities') {
      return {
        runs: 'activities',
        activities: isBinaryId(queue) ? activitiesConfigFor(queue, this.options.activities) : this.options.activities,
        ...(this.options.runsInFlight !== undefined ? { runsInFlight: this.options.runsInFlight } : {}),
      };
    }
    if (!isBinaryId(runs)) throw new Error(`no kernel binary ${runs}`);
    return {
      runs: 'workflows',
      binary: runs,
      bundlePath: await this.bundlePath(runs),
      ...(this.options.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: this.options.maxCachedWorkflows } : {}),
    };
  }

  private bundlePath(binary: BinaryId): Promise<string> {
    let path = this.bundles.get(binary);
    if (!path) {
      path = workflowBundle(binary).then((bundle) => {
        const file = join(this.bundleDir, `${binary}.js`);
        writeFileSync(file, bundle.code);
        return file;
      });
      this.bundles.set(binary, path);
    }
    return path;
  }
}
