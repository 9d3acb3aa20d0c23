/**
 * What a child worker process is told (its config, as one JSON argument) and what it says back
 * over IPC: that it is ready, and every activity it starts and finishes, so the harness can
 * strike at a turn and choose its moment.
 *
 * A kernel worker runs as two processes on its task queue: one runs a binary's workflows (the
 * turn loop and its cache: what a crash mid-turn loses), one runs the kernel's activities (the
 * same for every binary). A crash can take either or both.
 */
import type { ActivitiesConfig, ActivityControls, BinaryId } from '../kernel/index.ts';
import type { WorkerOffload } from '../kernel/workers/offload.ts';

export type WorkerRole =
  | {
      runs: 'workflows';
      binary: BinaryId;
      /** The bundle's code, written to a file by the parent (bundling takes seconds). */
      bundlePath: string;
      /** 0 replays every workflow task from history. */
      maxCachedWorkflows?: number;
    }
  | {
      runs: 'activities';
      /** Where it calls, and the controls its binary turns (ActivityControls' fields are ActivitiesConfig's). */
      activities: Pick<ActivitiesConfig, 'modelBaseUrl' | 'sandboxBaseUrl' | 'headers' | keyof ActivityControls>;
      /** The runs it serves at once: its heap limit follows it. */
      runsInFlight?: number;
    };

/**
 * A worker that polls as a Worker Deployment version (Worker Versioning): the server hands it only
 * the tasks of runs on its version (workflow and activity tasks alike), and records the version on
 * every WorkflowTaskCompleted it sends.
 */
export interface WorkerDeployment {
  /** The deployment: the task queue's name, one deployment per queue. */
  name: string;
  /** Its build id: the binary it runs (an activity worker: the binary of the workflows it serves). */
  buildId: string;
  /** The versioning behavior of the runs its workflow tasks start or move. */
  behavior: 'PINNED' | 'AUTO_UPGRADE';
}

export interface WorkerProcessConfig {
  /** gRPC host:port of the Temporal frontend (or of a proxy in front of it). */
  address: string;
  namespace: string;
  taskQueue: string;
  role: WorkerRole;
  /** Set: the worker polls as this deployment version; absent, unversioned. */
  deployment?: WorkerDeployment;
  /** Set: its data converter reads External Storage there, and stores there when its binary offloads. */
  offload?: WorkerOffload;
  /**
   * A warm standby: the worker is created (process, connection, bundle) but polls only when told
   * `go`, so that a crashed worker's replacement or an upgrade's new binary joins within
   * milliseconds of the strike instead of the seconds a process takes to start.
   */
  standby?: boolean;
}

const IDENTITY_SUFFIX = '@longrun-worker-';

/**
 * A worker's identity, which Temporal records in every WorkflowTaskStarted event: the histories
 * say which binary ran each task.
 */
export function workerIdentity(role: WorkerRole, pid: number): string {
  return `${role.runs === 'workflows' ? role.binary : 'activities'}${IDENTITY_SUFFIX}${pid}`;
}

/** The binary a worker identity names (`v1@longrun-worker-1234`), if it is a chaos worker's. */
export function binaryOfIdentity(identity: string | null | undefined): string | undefined {
  const at = identity?.indexOf(IDENTITY_SUFFIX) ?? -1;
  return at > 0 ? identity?.slice(0, at) : undefined;
}

export interface ActivityReport {
  /** Unique among the worker's activities in flight. */
  key: string;
  activityType: string;
  runId?: string;
  turn?: number;
  attempt: number;
}

/**
 * From the harness: a standby starts polling; a worker SIGKILLs itself at the first moment it
 * has had no workflow activation and no activity in flight for `quietMs` (it alone sees them).
 */
export type WorkerCommand = { type: 'go' } | { type: 'crash-when-quiet'; quietMs: number };

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'polling' }
  | ({ type: 'activity-started' } & ActivityReport)
  | { type: 'activity-finished'; key: string };
