/**
 * Kernel workers in child processes, one task queue per binary in play, that chaos can crash,
 * restart and upgrade while runs go on. Each queue has a workflow worker (a binary's turn loop
 * and its cache) and an activity worker (the kernel's activities, the same for every binary).
 * It serves the runner as its in-process workers do (`taskQueue`, `stop`, `failed`). Workers
 * that strikes will need are kept warm as standbys (created, not polling), so that a strike
 * lands at the turn it was meant for.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActivitiesConfig, BinaryId } from '../kernel/index.ts';
import type { KernelWorkers } from '../kernel/workers/kernel-workers.ts';
import { workflowBundle } from '../kernel/workers/workflow-bundles.ts';
import { sleep } from '../shared/sleep.ts';
import { type ActivityListener, ChildWorker } from './child-worker.ts';
import type { ActivityReport, WorkerRole } from './worker-messages.ts';

/** A worker of a queue (named by the binary it started with): a binary's workflows, or the activities. */
export interface QueueWorker {
  queue: BinaryId;
  runs: BinaryId | 'activities';
}

export type CrashedPart = 'workflows' | 'activities' | 'both';

export interface WorkerPoolOptions {
  /** gRPC host:port the workers connect to (the frontend, or a proxy in front of it). */
  address: string;
  namespace: string;
  /** One task queue per binary, each served by that binary's workflows at first. */
  binaries: readonly BinaryId[];
  /** The workers strikes will start (restarts, upgrades): kept warm as standbys. */
  standbys?: readonly QueueWorker[];
  activities: Pick<ActivitiesConfig, 'modelBaseUrl' | 'sandboxBaseUrl'>;
  queuePrefix: string;
  /** 0 replays every workflow task from history. */
  maxCachedWorkflows?: number;
  /** Called for every worker process started (pids, for a caller that must see none left behind). */
  onWorkerStarted?: (worker: ChildWorker) => void;
}

export interface CrashReport {
  killed: string;
  /** Activities the worker had in flight when it died: they are retried after their start-to-close timeout. */
  lost: ActivityReport[];
  replacement: string;
  /** From the kill to the replacement polling. */
  downMs: number;
}

export interface UpgradeReport {
  from: string[];
  to: string;
}

/** A worker is crashed once it has had nothing in flight this long, if that comes within QUIET_WAIT_MS. */
const QUIET_MS = 100;
const QUIET_WAIT_MS = 5_000;

interface Queue {
  workflows: ChildWorker[];
  activities: ChildWorker;
}

export class WorkerPool implements KernelWorkers {
  private readonly queues = new Map<BinaryId, Queue>();
  private readonly standbys = new Map<string, Promise<ChildWorker>>();
  private readonly listeners = new Set<ActivityListener>();
  private readonly bundles = new Map<BinaryId, Promise<string>>();
  private readonly bundleDir = mkdtempSync(join(tmpdir(), 'longrun-bundles-'));
  private rejectFailed: (error: Error) => void = () => {};
  private closed = false;
  readonly failed: Promise<never>;

  private constructor(private readonly options: WorkerPoolOptions) {
    this.failed = new Promise<never>((_, reject) => {
      this.rejectFailed = reject;
    });
    this.failed.catch(() => {});
  }

  static async start(options: WorkerPoolOptions): Promise<WorkerPool> {
    const pool = new WorkerPool(options);
    try {
      for (const standby of options.standbys ?? []) pool.warm(standby);
      await Promise.all(
        options.binaries.map(async (queue) => {
          const [workflows, activities] = await Promise.all([
            pool.startWorker({ queue, runs: queue }, false),
            pool.startWorker({ queue, runs: 'activities' }, false),
          ]);
          pool.queues.set(queue, { workflows: [workflows], activities });
        }),
      );
      await Promise.all(pool.standbys.values());
    } catch (error) {
      await pool.kill();
      throw error;
    }
    return pool;
  }

  taskQueue(binary: BinaryId): string {
    if (!this.queues.has(binary)) throw new Error(`no worker for binary ${binary}`);
    return `${this.options.queuePrefix}-${binary}`;
  }

  /**
   * The process running the first queue's workflows now (the newest, during an upgrade's
   * overlap): the worker whose memory a soak watches. Undefined between a kill and its replacement.
   */
  workflowWorkerPid(): number | undefined {
    const [first] = this.queues.values();
    const worker = first?.workflows.at(-1);
    return worker?.running ? worker.pid : undefined;
  }

  onActivityStarted(listener: ActivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * SIGKILLs the queue's workflow workers, its activity worker, or both, and starts replacements
   * (workflows of `restartAs`, or of the binary they ran). Each dies at a moment with nothing in
   * flight if one comes within seconds; what it had in flight then waits for its timeout.
   */
  async crash(queue: BinaryId, part: CrashedPart, restartAs?: BinaryId): Promise<CrashReport[]> {
    const state = this.queueOf(queue);
    const victims = [...(part === 'activities' ? [] : state.workflows), ...(part === 'workflows' ? [] : [state.activities])];
    const lost = await Promise.all(victims.map((victim) => victim.crashWhenQuiet(QUIET_MS, QUIET_WAIT_MS)));
    const killedAt = Date.now();
    return Promise.all(
      victims.map(async (victim, i) => {
        const runs = victim.binary ? (restartAs ?? victim.binary) : 'activities';
        const replacement = await this.takeWorker({ queue, runs }, victim);
        return { killed: victim.describe(), lost: lost[i] ?? [], replacement: replacement.describe(), downMs: Date.now() - killedAt };
      }),
    );
  }

  /** A rolling upgrade: workflows of `to` join the queue; after `overlapMs` the others shut down gracefully. */
  async upgrade(queue: BinaryId, to: BinaryId, overlapMs: number): Promise<UpgradeReport> {
    const state = this.queueOf(queue);
    const old = [...state.workflows];
    const newer = await this.takeWorker({ queue, runs: to });
    await sleep(overlapMs);
    await Promise.all(old.map((worker) => worker.stop()));
    state.workflows = state.workflows.filter((worker) => !old.includes(worker));
    return { from: old.map((worker) => worker.describe()), to: newer.describe() };
  }

  /** Graceful: every worker finishes what it has; standbys, which never polled, just end. */
  stop(): Promise<void> {
    return this.close((worker) => worker.stop());
  }

  /** At once: for a failure or an abort. */
  kill(): Promise<void> {
    return this.close((worker) => worker.kill());
  }

  private async close(end: (worker: ChildWorker) => Promise<unknown>): Promise<void> {
    this.closed = true;
    const standbys = await Promise.allSettled(this.standbys.values());
    const idle = standbys.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const polling = [...this.queues.values()].flatMap((state) => [...state.workflows, state.activities]);
    await Promise.all([...polling.map(end), ...idle.map((worker) => worker.kill())]);
    rmSync(this.bundleDir, { recursive: true, force: true });
  }

  private queueOf(queue: BinaryId): Queue {
    const state = this.queues.get(queue);
    if (!state) throw new Error(`no task queue for binary ${queue}`);
    return state;
  }

  /** A worker polling the queue, in place of `replacing` if given: the standby if there is one (and a new standby behind it). */
  private async takeWorker(wanted: QueueWorker, replacing?: ChildWorker): Promise<ChildWorker> {
    const key = standbyKey(wanted);
    const standby = this.standbys.get(key);
    let worker: ChildWorker;
    if (standby) {
      this.standbys.delete(key);
      worker = await standby;
      this.warm(wanted);
      await worker.go();
    } else {
      worker = await this.startWorker(wanted, false);
    }
    const state = this.queueOf(wanted.queue);
    if (wanted.runs === 'activities') state.activities = worker;
    else state.workflows = [...state.workflows.filter((w) => w !== replacing), worker];
    return worker;
  }

  private warm(wanted: QueueWorker): void {
    if (this.closed) return;
    const standby = this.startWorker(wanted, true);
    standby.catch((error: Error) => this.rejectFailed(error));
    this.standbys.set(standbyKey(wanted), standby);
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

  private async roleOf({ runs }: QueueWorker): Promise<WorkerRole> {
    if (runs === 'activities') return { runs, activities: this.options.activities };
    return {
      runs: 'workflows',
      binary: runs,
      bundlePath: await this.bundlePath(runs),
      ...(this.options.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: this.options.maxCachedWorkflows } : {}),
    };
  }

  private async startWorker(wanted: QueueWorker, standby: boolean): Promise<ChildWorker> {
    if (this.closed) throw new Error('the worker pool is closed');
    const worker = await ChildWorker.start({
      address: this.options.address,
      namespace: this.options.namespace,
      taskQueue: `${this.options.queuePrefix}-${wanted.queue}`,
      role: await this.roleOf(wanted),
      standby,
    });
    this.options.onWorkerStarted?.(worker);
    worker.onActivityStarted((report, from) => {
      for (const listener of this.listeners) listener(report, from);
    });
    worker.died.catch((error: Error) => this.rejectFailed(error));
    return worker;
  }
}

function standbyKey({ queue, runs }: QueueWorker): string {
  return `${queue}>${runs}`;
}
