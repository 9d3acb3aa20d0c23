/**
 * What a worker pool needs of its workers, whoever wrote them: the kernel's own worker processes
 * (kernel-worker-kind.ts: a binary's workflows and the activities apart, warm standbys, IPC
 * reports) or a foreign program (foreign-worker-kind.ts: one process for both, started on
 * demand, watched from outside). Chaos strikes both through the same pool.
 */
import type { BinaryName } from '../kernel/index.ts';
import type { VersioningBehaviorName } from '../scenario/chaos-step-rules.ts';
import type { ActivityReport } from './worker-messages.ts';

/** A worker of a queue (named by the binary it started with): a binary's workflows, or the activities. */
export interface QueueWorker {
  queue: BinaryName;
  runs: BinaryName | 'activities';
  /** Set on a queue a versioned upgrade acts on: the worker polls as this build of the queue's deployment. */
  version?: QueueVersion;
}

/** A build of a queue's Worker Deployment (one deployment per task queue, named after it). */
export interface QueueVersion {
  /** The build id: the binary whose runs it serves. */
  build: BinaryName;
  behavior: VersioningBehaviorName;
}

/** One worker process of a pool. */
export interface PoolWorker {
  /** The worker's own process (a foreign worker's program, not its supervisor): the one a soak samples. */
  readonly pid: number | undefined;
  /** Every process started for it (a foreign worker's supervisor too), for a caller that must see none left behind. */
  readonly pids: readonly number[];
  readonly running: boolean;
  /** The binary whose workflows it runs; undefined for an activity worker. */
  readonly binary: BinaryName | undefined;
  /** Rejects if the process ends without being told to. */
  readonly died: Promise<never>;
  describe(): string;
  /**
   * A SIGKILL at a moment it has nothing in flight, if one comes within `maxWaitMs`, else whatever
   * it holds. Resolves with the activities it is known to have had in flight (lost until their timeouts).
   */
  crashWhenQuiet(quietMs: number, maxWaitMs: number): Promise<ActivityReport[]>;
  /** SIGKILL now. */
  kill(): Promise<unknown>;
  /** A graceful shutdown: it stops polling and finishes what it has. */
  stop(): Promise<unknown>;
}

/** A worker started ahead of a strike, polling only once told to. */
export interface Standby<W extends PoolWorker> {
  worker: W;
  go(): Promise<void>;
}

export type TurnListener = (runId: string, turn: number) => void;

/** How a pool starts its workers and learns where the runs are. */
export interface WorkerKind<W extends PoolWorker = PoolWorker> {
  /** Whether a queue's activities run in a worker of their own, which a crash may spare or take alone. */
  readonly separateActivities: boolean;
  /** A worker polling `taskQueue`, ready once it does. */
  start(wanted: QueueWorker, taskQueue: string): Promise<W>;
  /** A standby; absent when the kind cannot hold a worker back from polling (a foreign program polls as it starts). */
  startStandby?(wanted: QueueWorker, taskQueue: string): Promise<Standby<W>>;
  /** Called as a run starts a turn (its first model call of the turn). */
  onTurnStarted(listener: TurnListener): () => void;
  /** The binary behind a worker identity Temporal recorded, if a worker of this kind polled under it. */
  binaryOfIdentity(identity: string): BinaryName | undefined;
  /** Frees what the kind holds besides its workers (files). */
  close?(): void;
}
