/**
 * Workers in processes of their own, one task queue per binary in play, that chaos can crash,
 * restart and upgrade while runs go on: the kernel's own (a binary's workflows and the
 * activities apart, kept warm as standbys so that a strike lands at the turn it was meant for)
 * or a foreign program's (one process for both, started when a strike needs it), behind the
 * same operations (worker-kind.ts). It serves the runner as its in-process workers do
 * (`taskQueue`, `stop`, `failed`).
 */
import type { BinaryName } from '../kernel/index.ts';
import type { VersioningBehaviorName } from '../scenario/chaos-step-rules.ts';
import { sleep } from '../shared/sleep.ts';
import type { WorkerDeployments } from './worker-deployments.ts';
import type { PoolWorker, QueueWorker, Standby, TurnListener, WorkerKind } from './worker-kind.ts';
import type { ActivityReport } from './worker-messages.ts';

export type { QueueWorker } from './worker-kind.ts';

export type CrashedPart = 'workflows' | 'activities' | 'both';

export interface WorkerPoolOptions {
  /** How workers start: the kernel's (KernelWorkerKind) or a foreign program's (ForeignWorkerKind). */
  kind: WorkerKind;
  /** One task queue per binary, each served by that binary's workflows at first. */
  binaries: readonly BinaryName[];
  /** The workers strikes will start (restarts, upgrades): kept warm as standbys where the kind can. */
  standbys?: readonly QueueWorker[];
  queuePrefix: string;
  /**
   * The queues a versioned upgrade acts on, with their runs' versioning behavior: their workers
   * poll as builds of the queue's deployment (named after the queue), the first as the queue's binary.
   */
  versioning?: ReadonlyMap<BinaryName, VersioningBehaviorName>;
  /** Called for every worker started (pids, for a caller that must see none left behind). */
  onWorkerStarted?: (worker: PoolWorker) => void;
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

export interface VersionedUpgradeReport extends UpgradeReport {
  /** The builds of the queue's deployment: the current one before, and after. */
  fromBuild: BinaryName;
  toBuild: BinaryName;
  /** Runs open on the old build when the current version moved: the old workers served them to their end (or ContinueAsNew). */
  pinnedRuns: number;
  /** From the move of the current version to the last run on the old build closing. */
  drainMs: number;
  /** The session ended before the old build's runs did. */
  stoppedEarly: boolean;
}

/** A worker is crashed once it has had nothing in flight this long, if that comes within QUIET_WAIT_MS. */
const QUIET_MS = 100;
const QUIET_WAIT_MS = 5_000;

interface Queue {
  workflows: PoolWorker[];
  /** Absent when the workflow workers run the activities too (a foreign program). */
  activities?: PoolWorker;
  /** A versioned queue: the build of its deployment its workers poll as now. */
  build?: BinaryName;
}

export class WorkerPool {
  private readonly queues = new Map<BinaryName, Queue>();
  private readonly standbys = new Map<string, Promise<Standby<PoolWorker>>>();
  private readonly kind: WorkerKind;
  /** Old workers of a versioned upgrade, serving their build's runs until those are done. */
  private readonly draining = new Set<PoolWorker>();
  private rejectFailed: (error: Error) => void = () => {};
  private closed = false;
  readonly failed: Promise<never>;

  private constructor(private readonly options: WorkerPoolOptions) {
    this.kind = options.kind;
    this.failed = new Promise<never>((_, reject) => {
      this.rejectFailed = reject;
    });
    this.failed.catch(() => {});
  }

  static async start(options: WorkerPoolOptions): Promise<WorkerPool> {
    const pool = new WorkerPool(options);
    try {
      for (const standby of options.standbys ?? []) pool.warm(standby);
      // Settled, not raced: a worker still starting when another fails is ended with the rest.
      const started = await Promise.allSettled(
        options.binaries.map(async (queue) => {
          const version = pool.versionOf(queue, queue);
          const [workflows, activities] = await Promise.all([
            pool.startWorker({ queue, runs: queue, ...version }),
            pool.kind.separateActivities ? pool.startWorker({ queue, runs: 'activities', ...version }) : undefined,
          ]);
          pool.queues.set(queue, {
            workflows: [workflows],
            ...(activities ? { activities } : {}),
            ...(version.version ? { build: queue } : {}),
          });
        }),
      );
      const failure = started.find((outcome) => outcome.status === 'rejected');
      if (failure) throw failure.reason;
      await Promise.all(pool.standbys.values());
    } catch (error) {
      await pool.kill();
      throw error;
    }
    return pool;
  }

  /** The Worker Deployment of a versioned queue (named after its task queue), and the build it polls as now. */
  deploymentOf(queue: BinaryName): { name: string; build: BinaryName } | undefined {
    const build = this.queueOf(queue).build;
    return build === undefined ? undefined : { name: this.queueName(queue), build };
  }

  taskQueue(binary: BinaryName): string {
    if (!this.queues.has(binary)) throw new Error(`no worker for binary ${binary}`);
    return this.queueName(binary);
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

  onTurnStarted(listener: TurnListener): () => void {
    return this.kind.onTurnStarted(listener);
  }

  /** The binary whose worker took a workflow task, from the identity Temporal recorded. */
  binaryOfIdentity(identity: string): BinaryName | undefined {
    return this.kind.binaryOfIdentity(identity);
  }

  /**
   * SIGKILLs the queue's workflow workers, its activity worker, or both, and starts replacements
   * (workflows of `restartAs`, or of the binary they ran). Each dies at a moment with nothing in
   * flight if one comes within seconds; what it had in flight then waits for its timeout. A
   * worker that runs the activities too goes down whole, whichever part is named.
   */
  async crash(queue: BinaryName, part: CrashedPart, restartAs?: BinaryName): Promise<CrashReport[]> {
    const state = this.queueOf(queue);
    const activities = part === 'workflows' || !state.activities ? [] : [state.activities];
    const victims = [...(part === 'activities' && state.activities ? [] : state.workflows), ...activities];
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
  async upgrade(queue: BinaryName, to: BinaryName, overlapMs: number): Promise<UpgradeReport> {
    const state = this.queueOf(queue);
    const old = [...state.workflows];
    const newer = await this.takeWorker({ queue, runs: to });
    await sleep(overlapMs);
    await Promise.all(old.map((worker) => worker.stop()));
    state.workflows = state.workflows.filter((worker) => !old.includes(worker));
    return { from: old.map((worker) => worker.describe()), to: newer.describe() };
  }

  /**
   * An upgrade by Worker Versioning: workflows and activities of `to` poll as the `to` build of the
   * queue's deployment, which then becomes its current version; the old build's workers keep
   * serving until no run is open on their build (a pinned run to its end or its ContinueAsNew),
   * then shut down gracefully.
   */
  async upgradeVersioned(queue: BinaryName, to: BinaryName, deployments: WorkerDeployments): Promise<VersionedUpgradeReport> {
    const state = this.queueOf(queue);
    const deployment = this.deploymentOf(queue);
    if (!deployment) throw new Error(`task queue ${this.queueName(queue)} is not versioned`);
    const old = [...state.workflows, ...(state.activities ? [state.activities] : [])];
    for (const worker of old) this.draining.add(worker);
    const version = this.versionOf(queue, to);
    const [newer] = await Promise.all([
      this.takeWorker({ queue, runs: to, ...version }),
      ...(state.activities ? [this.takeWorker({ queue, runs: 'activities', ...version })] : []),
    ]);
    await deployments.setCurrent(deployment.name, to);
    state.build = to;
    const moved = Date.now();
    const { openAtStart, stoppedEarly } = await deployments.drained(deployment.name, deployment.build);
    const drainMs = Date.now() - moved;
    state.workflows = state.workflows.filter((worker) => !old.includes(worker));
    await Promise.all(old.map((worker) => worker.stop()));
    for (const worker of old) this.draining.delete(worker);
    return {
      from: old.map((worker) => worker.describe()),
      to: newer.describe(),
      fromBuild: deployment.build,
      toBuild: to,
      pinnedRuns: openAtStart,
      drainMs,
      stoppedEarly,
    };
  }

  /** Graceful: every worker finishes what it has; standbys, which never polled, just end. */
  stop(): Promise<void> {
    return this.close((worker) => worker.stop());
  }

  /** At once: for a failure or an abort. */
  kill(): Promise<void> {
    return this.close((worker) => worker.kill());
  }

  private async close(end: (worker: PoolWorker) => Promise<unknown>): Promise<void> {
    this.closed = true;
    const standbys = await Promise.allSettled(this.standbys.values());
    const idle = standbys.flatMap((s) => (s.status === 'fulfilled' ? [s.value.worker] : []));
    const serving = [...this.queues.values()].flatMap((state) => [...state.workflows, ...(state.activities ? [state.activities] : [])]);
    const polling = [...new Set([...serving, ...this.draining])];
    await Promise.all([...polling.map(end), ...idle.map((worker) => worker.kill())]);
    this.kind.close?.();
  }

  private queueName(queue: BinaryName): string {
    return `${this.options.queuePrefix}-${queue}`;
  }

  /** The version a worker of `build` polls as on a versioned queue; nothing on another. */
  private versionOf(queue: BinaryName, build: BinaryName): Pick<QueueWorker, 'version'> {
    const behavior = this.options.versioning?.get(queue);
    return behavior ? { version: { build, behavior } } : {};
  }

  private queueOf(queue: BinaryName): Queue {
    const state = this.queues.get(queue);
    if (!state) throw new Error(`no task queue for binary ${queue}`);
    return state;
  }

  /** A worker polling the queue, in place of `replacing` if given: the standby if there is one (and a new standby behind it). */
  private async takeWorker(wanted: QueueWorker, replacing?: PoolWorker): Promise<PoolWorker> {
    const key = standbyKey(wanted);
    const standby = this.standbys.get(key);
    let worker: PoolWorker;
    if (standby) {
      this.standbys.delete(key);
      const ready = await standby;
      this.warm(wanted);
      await ready.go();
      worker = ready.worker;
    } else {
      worker = await this.startWorker(wanted);
    }
    const state = this.queueOf(wanted.queue);
    if (wanted.runs === 'activities') state.activities = worker;
    else state.workflows = [...state.workflows.filter((w) => w !== replacing), worker];
    return worker;
  }

  private warm(wanted: QueueWorker): void {
    const { startStandby } = this.kind;
    if (this.closed || !startStandby) return;
    const standby = startStandby.call(this.kind, wanted, this.queueName(wanted.queue)).then((ready) => this.started(ready.worker) && ready);
    standby.catch((error: Error) => this.rejectFailed(error));
    this.standbys.set(standbyKey(wanted), standby);
  }

  private async startWorker(wanted: QueueWorker): Promise<PoolWorker> {
    if (this.closed) throw new Error('the worker pool is closed');
    return this.started(await this.kind.start(wanted, this.queueName(wanted.queue)));
  }

  private started<W extends PoolWorker>(worker: W): W {
    this.options.onWorkerStarted?.(worker);
    worker.died.catch((error: Error) => this.rejectFailed(error));
    return worker;
  }
}

function standbyKey({ queue, runs, version }: QueueWorker): string {
  return `${queue}>${runs}${version ? `@${version.build}` : ''}`;
}
