/**
 * The harness's side of one worker process: starts it, waits until it polls (a standby, until it
 * is ready to, and then tells it to go), follows the activities it has in flight (from its IPC
 * reports) and ends it: by SIGKILL (a crash, at a quiet moment or at once) or by SIGTERM (a
 * graceful shutdown that lets its activities finish).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { BinaryId } from '../kernel/index.ts';
import { activityWorkerHeapMiB, workflowWorkerHeapMiB } from '../kernel/workers/kernel-workers.ts';
import { childEnv } from '../shared/child-env.ts';
import { nodeArgsFor, siblingModule } from '../shared/package-paths.ts';
import { type ExitStatus, exitOf, isRunning, stopChild, tailOf, trackChild } from './child-processes.ts';
import type { PoolWorker } from './worker-kind.ts';
import type { ActivityReport, WorkerCommand, WorkerMessage, WorkerProcessConfig, WorkerRole } from './worker-messages.ts';

const ENTRY = siblingModule(import.meta.url, './worker-process.ts');
/** Starting node, tsx and a worker takes a few seconds; a loaded machine, more. */
const READY_TIMEOUT_MS = 60_000;
/** A graceful shutdown waits for activities in flight (the worker's grace is 10 s). */
const STOP_GRACE_MS = 15_000;

/**
 * glibc's malloc for the SDK's native core (Rust, its threads): two arenas instead of one per
 * thread, and blocks of 64 KiB and more (payloads) mapped and unmapped on their own, so freed
 * payload buffers go back to the system instead of fragmenting the arenas. Without it the
 * worker's memory outside the V8 heaps crept up for as long as runs went through it. A value in
 * the environment wins.
 */
const NATIVE_ALLOCATOR = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536' };

/**
 * V8's young generation: semi-spaces of 4 MiB instead of 16. A max-size run's worker processes
 * peaked 30-40 MB lower each, for ~1.3 s more CPU (more scavenges) in its workflow worker over
 * 300 turns; a turn's large payloads go straight to V8's large-object space anyway.
 */
const YOUNG_GENERATION_ARGS = ['--max-semi-space-size=4'];

/**
 * A workflow worker's heap limit follows its cache size (workflowWorkerHeapMiB; without one, the
 * SDK sizes the cache from the heap), an activity worker's the runs it serves at once.
 */
function heapArgsOf(role: WorkerRole): string[] {
  const oldSpaceMiB =
    role.runs === 'workflows'
      ? role.maxCachedWorkflows !== undefined && workflowWorkerHeapMiB(role.maxCachedWorkflows)
      : role.runsInFlight !== undefined && activityWorkerHeapMiB(role.runsInFlight);
  return [...YOUNG_GENERATION_ARGS, ...(oldSpaceMiB ? [`--max-old-space-size=${oldSpaceMiB}`] : [])];
}

export type ActivityListener = (report: ActivityReport, worker: ChildWorker) => void;

export class ChildWorker implements PoolWorker {
  private readonly inFlight = new Map<string, ActivityReport>();
  private readonly listeners = new Set<ActivityListener>();
  private ending = false;
  /** Rejects if the process ends without being told to. */
  readonly died: Promise<never>;

  private constructor(
    private readonly child: ChildProcess,
    readonly config: WorkerProcessConfig,
    private readonly stderrTail: () => string,
  ) {
    child.on('message', (message: WorkerMessage) => this.onMessage(message));
    this.died = exitOf(child).then(({ code, signal }) => {
      if (this.ending) return new Promise<never>(() => {});
      throw new Error(`worker ${this.describe()} exited (${signal ?? `code ${code}`}): ${this.stderrTail() || 'no output'}`);
    });
    this.died.catch(() => {});
  }

  static async start(config: WorkerProcessConfig): Promise<ChildWorker> {
    const child = spawn(process.execPath, [...heapArgsOf(config.role), ...nodeArgsFor(ENTRY), JSON.stringify(config)], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...NATIVE_ALLOCATOR, ...childEnv() },
    });
    trackChild(child);
    const worker = new ChildWorker(child, config, tailOf(child.stderr));
    const ready = new Promise<void>((resolve) => child.on('message', (m: WorkerMessage) => m.type === 'ready' && resolve()));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`worker ${worker.describe()} not ready after ${READY_TIMEOUT_MS / 1000} s`)),
        READY_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([ready, worker.died, timeout]);
    } catch (error) {
      await worker.kill();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return worker;
  }

  get pid(): number {
    return this.child.pid as number;
  }

  get pids(): number[] {
    return [this.pid];
  }

  get running(): boolean {
    return isRunning(this.child);
  }

  /** A standby starts polling; resolves once it does. */
  async go(): Promise<void> {
    const polling = new Promise<void>((resolve) => this.child.on('message', (m: WorkerMessage) => m.type === 'polling' && resolve()));
    this.child.send({ type: 'go' } satisfies WorkerCommand);
    await Promise.race([polling, this.died]);
  }

  /** The binary whose workflows it runs; undefined for an activity worker. */
  get binary(): BinaryId | undefined {
    return this.config.role.runs === 'workflows' ? this.config.role.binary : undefined;
  }

  describe(): string {
    return `${this.binary ?? 'activities'} worker (pid ${this.child.pid ?? '?'})`;
  }

  onActivityStarted(listener: ActivityListener): void {
    this.listeners.add(listener);
  }

  activitiesInFlight(): ActivityReport[] {
    return [...this.inFlight.values()];
  }

  /**
   * A crash at a moment the worker has nothing in flight, if one comes within `maxWaitMs` (the
   * worker picks it: only it sees its workflow activations); then a crash whatever it holds.
   * Resolves with the activities it had in flight when it died (lost until their timeouts).
   */
  async crashWhenQuiet(quietMs: number, maxWaitMs: number): Promise<ActivityReport[]> {
    this.ending = true;
    const exited = exitOf(this.child);
    this.child.send({ type: 'crash-when-quiet', quietMs } satisfies WorkerCommand);
    const timer = setTimeout(() => this.running && this.child.kill('SIGKILL'), maxWaitMs);
    await exited;
    clearTimeout(timer);
    return this.activitiesInFlight();
  }

  /** A crash now: SIGKILL, no shutdown, whatever is in flight is lost. */
  async kill(): Promise<ExitStatus> {
    this.ending = true;
    const exited = exitOf(this.child);
    if (this.running) this.child.kill('SIGKILL');
    return exited;
  }

  /** A graceful shutdown: the worker stops polling and finishes what it has. */
  stop(): Promise<ExitStatus> {
    this.ending = true;
    return stopChild(this.child, STOP_GRACE_MS);
  }

  private onMessage(message: WorkerMessage): void {
    if (message.type === 'activity-started') {
      const { type: _, ...report } = message;
      this.inFlight.set(report.key, report);
      for (const listener of this.listeners) listener(report, this);
    } else if (message.type === 'activity-finished') {
      this.inFlight.delete(message.key);
    }
  }
}
