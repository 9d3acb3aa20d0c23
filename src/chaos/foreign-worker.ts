/**
 * The harness's side of one foreign worker: a worker process longrun did not write, started from
 * the scenario's command under a supervisor (foreign-supervisor.ts), handed the cluster, its task
 * queue, its identity and the mocks through its environment (src/contract/worker-env.ts), and
 * ready once the server has seen it poll that task queue (under that identity, or under the
 * SDKs' default `<pid>@host`). A command that cannot start, exits at once or never polls is one
 * line naming it, and nothing of it is left running. Chaos strikes it as one process that runs
 * its workflows and its activities (worker-kind.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Client } from '@temporalio/client';
// The package is CommonJS: its namespace is reached through the default export under Node's ESM loader.
import proto from '@temporalio/proto';
import { WORKER_ENV } from '../contract/worker-env.ts';
import { childEnv } from '../shared/child-env.ts';
import { nodeArgsFor, siblingModule } from '../shared/package-paths.ts';
import { sleep } from '../shared/sleep.ts';
import { exitOf, isRunning, killNow, stopChild, tailOf, trackChild } from './child-processes.ts';
import { describeCommand, describeExit, type ForeignCommand, lastMeaningfulLine, stderrTail } from './foreign-command.ts';
import type { PoolWorker } from './worker-kind.ts';
import type { ActivityReport } from './worker-messages.ts';

const SUPERVISOR = siblingModule(import.meta.url, './foreign-supervisor.ts');
const POLL_CHECK_EVERY_MS = 200;
/** A JVM or a `go run` takes a while; a worker that has not polled in a minute will not. */
const DEFAULT_READY_TIMEOUT_MS = 60_000;
/** How long a dead worker's last words may take to arrive after its exit. */
const CLOSE_WAIT_MS = 1_000;
/** A graceful stop lets activities in flight finish. */
const STOP_GRACE_MS = 15_000;
/** A worker that takes longer than this to stop keeps longrun waiting: it says so. */
const QUIET_STOP_MS = 1_000;

export interface ForeignWorkerOptions {
  /** The binary's name in the scenario ("go-v1"): messages and reports use it. */
  name: string;
  command: ForeignCommand;
  /** Asked whether the worker polls yet. */
  client: Client;
  address: string;
  namespace: string;
  taskQueue: string;
  mockUrl: string;
  /** The model's base URL when it is not the mock's (a proxy in front of it, for network chaos). */
  modelUrl?: string;
  /** The identity it is asked to poll under (default: its name and a serial). */
  identity?: string;
  /** Requests the mocks have open (a foreign program says nothing of its activities): a crash waits for none. */
  requestsInFlight?: () => number;
  /** 0 forces every workflow task to replay from history (the `force-replay` chaos step). */
  maxCachedWorkflows?: number;
  /** How long it may take to poll (default 60 s). */
  readyTimeoutMs?: number;
  /** `address` is the user's cluster (TEMPORAL_ADDRESS), not the embedded server: the worker gets its key (TEMPORAL_API_KEY). */
  userCluster?: boolean;
}

let serial = 0;

/**
 * "foreign worker py-v1 (`python worker.py`) exited with SIGABRT after 2.1 s: <its last word>;
 * its stderr ended: <a few lines>": one line, as a run's termination reason carries it.
 */
export function crashMessage(who: string, exit: { code: number | null; signal: string | null }, elapsedMs: number, stderr: string): string {
  const tail = stderrTail(stderr, 3);
  const said = lastMeaningfulLine(stderr);
  const ended = tail.length > 1 ? `; its stderr ended: ${tail.join(' | ')}` : '';
  return `${who} ${describeExit(exit.code, exit.signal, elapsedMs)}: ${said || 'no output'}${ended}`;
}

/** The environment a foreign worker reads (src/contract/worker-env.ts). */
export function foreignWorkerEnv(options: ForeignWorkerOptions & { identity: string }): Record<string, string> {
  return {
    [WORKER_ENV.address]: options.address,
    [WORKER_ENV.namespace]: options.namespace,
    [WORKER_ENV.taskQueue]: options.taskQueue,
    [WORKER_ENV.identity]: options.identity,
    [WORKER_ENV.mockUrl]: options.mockUrl,
    [WORKER_ENV.modelUrl]: options.modelUrl ?? `${options.mockUrl}/v1`,
    [WORKER_ENV.sandboxUrl]: `${options.mockUrl}/sandbox/v1`,
    ...(options.maxCachedWorkflows !== undefined ? { [WORKER_ENV.maxCachedWorkflows]: String(options.maxCachedWorkflows) } : {}),
  };
}

export class ForeignWorker implements PoolWorker {
  private ending = false;
  private started: number | undefined;
  private polledAs: string | undefined;
  /** Rejects if the worker exits without being told to. */
  readonly died: Promise<never>;

  private constructor(
    private readonly child: ChildProcess,
    readonly options: ForeignWorkerOptions & { identity: string },
    private readonly output: () => string,
  ) {
    const spawnedAt = Date.now();
    // The worker's own end, as its supervisor saw it (the supervisor's exit code cannot carry a signal).
    let exited: { code: number | null; signal: string | null } | undefined;
    // 'close' comes once its stderr and the supervisor's last message are read, which 'exit' may precede.
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    this.died = exitOf(child).then(async ({ code, signal }) => {
      if (this.ending) return new Promise<never>(() => {});
      const elapsedMs = Date.now() - spawnedAt;
      await Promise.race([closed, sleep(CLOSE_WAIT_MS)]);
      throw new Error(crashMessage(this.describe(), exited ?? { code, signal }, elapsedMs, this.output()));
    });
    this.died.catch(() => {});
    child.on('message', (message: { type?: string; pid?: number; code?: number | null; signal?: string | null }) => {
      if (message.type === 'started') this.started = message.pid;
      if (message.type === 'exited') exited = { code: message.code ?? null, signal: message.signal ?? null };
    });
  }

  static async start(given: ForeignWorkerOptions): Promise<ForeignWorker> {
    // Named like the kernel's chaos workers' (worker-messages.ts), so the histories name the binary.
    const options = { ...given, identity: given.identity ?? `${given.name}@longrun-worker-${process.pid}-${++serial}` };
    const command: ForeignCommand = { ...options.command, env: { ...options.command.env, ...foreignWorkerEnv(options) } };
    // Detached: the supervisor leads a process group, so a kill reaches everything the worker started.
    // The supervisor hands the worker its own environment.
    const child = spawn(process.execPath, [...nodeArgsFor(SUPERVISOR), JSON.stringify(command)], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      detached: true,
      env: childEnv({ userCluster: options.userCluster ?? false }),
    });
    trackChild(child, { group: true });
    const output = tailOf(child.stderr);
    child.stdout?.resume();
    const worker = new ForeignWorker(child, options, output);
    const timeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    try {
      await Promise.race([worker.polling(timeoutMs), worker.died]);
    } catch (error) {
      await worker.kill();
      throw error;
    }
    return worker;
  }

  /** The supervisor's pid, which leads the worker's process group. */
  get supervisorPid(): number | undefined {
    return this.child.pid;
  }

  /** The worker program's own pid, once it has started. */
  get pid(): number | undefined {
    return this.started;
  }

  get pids(): number[] {
    return [this.child.pid, this.started].filter((pid) => pid !== undefined);
  }

  get running(): boolean {
    return isRunning(this.child);
  }

  /** The binary it runs: its name in the scenario. */
  get binary(): string {
    return this.options.name;
  }

  /** The identity the server saw it poll under (once ready). */
  get identity(): string | undefined {
    return this.polledAs;
  }

  /** "foreign worker go-v1 (`go-kernel worker --binary v1`)". */
  describe(): string {
    return `foreign worker ${this.options.name} (${describeCommand(this.options.command)})`;
  }

  /** SIGTERM (a graceful shutdown), then SIGKILL of its whole group after the grace; a wait past a second is said in one line. */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.ending = true;
    const notice = setTimeout(
      () =>
        process.stderr.write(
          `longrun: waiting up to ${Math.round(graceMs / 1000)} s for ${this.describe()} to stop after SIGTERM (its activities in flight may finish), then SIGKILL\n`,
        ),
      QUIET_STOP_MS,
    );
    try {
      await stopChild(this.child, graceMs);
    } finally {
      clearTimeout(notice);
    }
  }

  /**
   * A crash at a moment the mocks have no request open, if one comes within `maxWaitMs` (then no
   * model or tool call of it is lost to its start-to-close timeout), else at once. What else it
   * held is not known from outside: no activity is reported lost.
   */
  async crashWhenQuiet(quietMs: number, maxWaitMs: number): Promise<ActivityReport[]> {
    this.ending = true;
    const busy = this.options.requestsInFlight;
    const deadline = Date.now() + maxWaitMs;
    let quietSince = Date.now();
    while (busy && Date.now() < deadline && Date.now() - quietSince < quietMs) {
      if (busy() > 0) quietSince = Date.now();
      await sleep(1);
    }
    await this.kill();
    return [];
  }

  /** SIGKILL of its whole group, at once: a crash. */
  async kill(): Promise<void> {
    this.ending = true;
    if (isRunning(this.child)) killNow(this.child, true);
    await exitOf(this.child);
  }

  private async polling(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const { client, namespace, taskQueue } = this.options;
    while (isRunning(this.child)) {
      const { pollers } = await client.workflowService.describeTaskQueue({
        namespace,
        taskQueue: { name: taskQueue, kind: proto.temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      });
      const mine = (pollers ?? []).find(({ identity }) => identity === this.options.identity || identity?.startsWith(`${this.started}@`));
      if (mine) {
        this.polledAs = mine.identity ?? undefined;
        return;
      }
      if (Date.now() > deadline) {
        const said = lastMeaningfulLine(this.output());
        throw new Error(
          `${this.describe()} never polled task queue ${taskQueue} in ${Math.round(timeoutMs / 1000)} s${said ? `: ${said}` : ''}`,
        );
      }
      await sleep(POLL_CHECK_EVERY_MS);
    }
    await this.died;
  }
}
