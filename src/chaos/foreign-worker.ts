/**
 * The harness's side of one foreign worker: a worker process longrun did not write, started from
 * the scenario's command under a supervisor (foreign-supervisor.ts), handed the cluster, its task
 * queue and the mocks through its environment (src/contract/worker-env.ts), and ready once the
 * server has seen it poll that task queue. A command that cannot start, exits at once or never
 * polls is one line naming it, and nothing of it is left running.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Client } from '@temporalio/client';
// The package is CommonJS: its namespace is reached through the default export under Node's ESM loader.
import proto from '@temporalio/proto';
import { WORKER_ENV } from '../contract/worker-env.ts';
import { nodeArgsFor, siblingModule } from '../shared/package-paths.ts';
import { sleep } from '../shared/sleep.ts';
import { exitOf, isRunning, killNow, stopChild, tailOf, trackChild } from './child-processes.ts';
import { describeCommand, type ForeignCommand, lastLine } from './foreign-command.ts';

const SUPERVISOR = siblingModule(import.meta.url, './foreign-supervisor.ts');
const POLL_CHECK_EVERY_MS = 200;
/** A JVM or a `go run` takes a while; a worker that has not polled in a minute will not. */
const DEFAULT_READY_TIMEOUT_MS = 60_000;
/** A graceful stop lets activities in flight finish. */
const STOP_GRACE_MS = 15_000;

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
  /** 0 forces every workflow task to replay from history (the `force-replay` chaos step). */
  maxCachedWorkflows?: number;
  /** How long it may take to poll (default 60 s). */
  readyTimeoutMs?: number;
}

/** The environment a foreign worker reads (src/contract/worker-env.ts). */
export function foreignWorkerEnv(options: ForeignWorkerOptions): Record<string, string> {
  return {
    [WORKER_ENV.address]: options.address,
    [WORKER_ENV.namespace]: options.namespace,
    [WORKER_ENV.taskQueue]: options.taskQueue,
    [WORKER_ENV.mockUrl]: options.mockUrl,
    [WORKER_ENV.modelUrl]: `${options.mockUrl}/v1`,
    [WORKER_ENV.sandboxUrl]: `${options.mockUrl}/sandbox/v1`,
    ...(options.maxCachedWorkflows !== undefined ? { [WORKER_ENV.maxCachedWorkflows]: String(options.maxCachedWorkflows) } : {}),
  };
}

export class ForeignWorker {
  private ending = false;
  private started: number | undefined;
  /** Rejects if the worker exits without being told to. */
  readonly died: Promise<never>;

  private constructor(
    private readonly child: ChildProcess,
    readonly options: ForeignWorkerOptions,
    private readonly output: () => string,
  ) {
    this.died = exitOf(child).then(({ code, signal }) => {
      if (this.ending) return new Promise<never>(() => {});
      throw new Error(`${this.describe()} exited (${signal ?? `code ${code}`}): ${lastLine(this.output()) || 'no output'}`);
    });
    this.died.catch(() => {});
    child.on('message', (message: { type?: string; pid?: number }) => {
      if (message.type === 'started') this.started = message.pid;
    });
  }

  static async start(options: ForeignWorkerOptions): Promise<ForeignWorker> {
    const command: ForeignCommand = { ...options.command, env: { ...options.command.env, ...foreignWorkerEnv(options) } };
    // Detached: the supervisor leads a process group, so a kill reaches everything the worker started.
    const child = spawn(process.execPath, [...nodeArgsFor(SUPERVISOR), JSON.stringify(command)], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      detached: true,
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
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The worker program's own pid, once it has started. */
  get workerPid(): number | undefined {
    return this.started;
  }

  /** "foreign worker go-v1 (`go-kernel worker --binary v1`)". */
  describe(): string {
    return `foreign worker ${this.options.name} (${describeCommand(this.options.command)})`;
  }

  /** SIGTERM (a graceful shutdown), then SIGKILL of its whole group after the grace. */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.ending = true;
    await stopChild(this.child, graceMs);
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
      if ((pollers ?? []).length > 0) return;
      if (Date.now() > deadline) {
        const said = lastLine(this.output());
        throw new Error(
          `${this.describe()} never polled task queue ${taskQueue} in ${Math.round(timeoutMs / 1000)} s${said ? `: ${said}` : ''}`,
        );
      }
      await sleep(POLL_CHECK_EVERY_MS);
    }
    await this.died;
  }
}
