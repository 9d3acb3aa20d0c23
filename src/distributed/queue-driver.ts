/**
 * The side of a scenario run that drives on a harness task queue
 * (docs/decisions/driving-on-the-queue.md): it starts the driver workflow, or attaches to the
 * one already driving the scenario and seed, serves the host queue the drive asks it on (each
 * run started, and each run ended with its mocks' verdict), and gathers each run's record once,
 * from the run's child workflow.
 */
import { Context } from '@temporalio/activity';
import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { InvariantResult } from '../checks/index.ts';
import { activityDataConverter } from '../kernel/workers/workflow-bundles.ts';
import type { RunRecord } from '../result/index.ts';
import type { DriveRequest, RunDriver } from '../runner/driven-elsewhere.ts';
import type { LaunchedRun } from '../runner/launch.ts';
import { childrenOfDrive, type DriveOutcome, runsPerExecutionOf } from './drive-hand-over.ts';
import type { DriveInput, DrivenRun, HostActivities, WireRun } from './drive-workflow.ts';
import { driveWorkflowId } from './harness-ids.ts';
import { heartbeating } from './heartbeating.ts';

/** The workflow type of a scenario's drive (drive-workflow.ts). */
export const DRIVE_WORKFLOW_TYPE = 'driveScenarioWorkflow';

/** The `run` process's own queue, for the drive `driveId` on `taskQueue`. */
export function hostQueueOf(taskQueue: string, driveId: string): string {
  return `${taskQueue}-host-${driveId}`;
}

export interface QueueDriverOptions {
  /** Runs an execution of the driver starts before it continues as new (DEFAULT_RUNS_PER_EXECUTION). */
  runsPerExecution?: number;
}

/**
 * The options `longrun run --drive-on` takes from its environment: `LONGRUN_DRIVE_RUNS_PER_EXECUTION`,
 * the driver's bound of runs an execution (for a server whose history limits are set lower, and
 * for the tests that drive a continued drive from a `run` process). Refused when not a whole number of at least 1.
 */
export function queueDriverOptionsOf(env: NodeJS.ProcessEnv): QueueDriverOptions {
  const bound = env.LONGRUN_DRIVE_RUNS_PER_EXECUTION;
  if (bound === undefined || bound === '') return {};
  const runsPerExecution = Number(bound);
  if (!Number.isInteger(runsPerExecution) || runsPerExecution < 1) {
    throw new RangeError(`LONGRUN_DRIVE_RUNS_PER_EXECUTION must be a whole number of at least 1, not ${bound}`);
  }
  return { runsPerExecution };
}

/**
 * Drives every run on `taskQueue`, served by `longrun harness-worker`s on the runs' cluster: in
 * `namespace` (a namespace of the harness's own), else in the runs' namespace.
 */
export function queueDriver(taskQueue: string, namespace?: string, options: QueueDriverOptions = {}): RunDriver {
  // Refused here, before the drive starts: a workflow that threw on it would be retried for ever.
  runsPerExecutionOf(options);
  return {
    queuePrefix: (scenario) => driveWorkflowId(scenario),
    async drive(request) {
      const harness = namespace ? new Client({ connection: request.client.connection, namespace }) : request.client;
      const driveId = driveWorkflowId(request.scenario);
      const hostQueue = hostQueueOf(taskQueue, driveId);
      const gathering = new Gathering(harness, request);
      const worker = await Worker.create({
        connection: request.workerConnection,
        namespace: harness.options.namespace,
        taskQueue: hostQueue,
        activities: gathering.activities(),
        dataConverter: activityDataConverter(),
      });
      const serving = worker.run();
      try {
        await harness.workflow.start(DRIVE_WORKFLOW_TYPE, {
          taskQueue,
          workflowId: driveId,
          args: [{ ...driveInputOf(request, hostQueue), ...options }],
          // A second invocation while the drive runs attaches to it; one after it ended starts afresh.
          workflowIdConflictPolicy: 'USE_EXISTING',
        });
        // By its id alone: its result follows the drive as it continues as new to the last
        // execution's, and a cancel reaches the execution under way (attached to a drive that has
        // continued as new, `start`'s handle takes the execution it found for the chain's first,
        // and the server refuses a cancel of it).
        const handle = harness.workflow.getHandle(driveId);
        const stopped = new Promise<void>((resolve) =>
          request.signal.aborted ? resolve() : request.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        const outcome = await Promise.race([handle.result() as Promise<DriveOutcome>, stopped, request.failed]).catch(
          async (error: unknown) => {
            await handle.cancel().catch(() => {});
            throw error;
          },
        );
        if (!outcome) {
          // Interrupted: the drive is cancelled and ends once its watches have stopped their runs; what was judged is kept.
          await handle.cancel().catch(() => {});
          await handle.result().catch(() => {});
          return;
        }
        await gathering.all(childrenOfDrive(driveId, outcome));
      } finally {
        worker.shutdown();
        await serving;
      }
    },
  };
}

function driveInputOf(request: DriveRequest, hostQueue: string): DriveInput {
  return {
    namespace: request.client.options.namespace,
    scenario: request.scenario,
    binaries: request.binaries,
    taskQueues: request.taskQueues,
    startedAtMs: request.startedAt.getTime(),
    schedule: request.schedule,
    timeoutMs: request.timeoutMs,
    hostQueue,
    checkContext: request.checkContext,
    inPlay: request.inPlay,
  };
}

/**
 * What the `run` process hears of the drive, each once by the run's child workflow id however
 * often an activity is tried: a run started, a run ended (its verdict given, its record then
 * gathered from its child), so that no run is counted or reported twice.
 */
class Gathering {
  readonly #started = new Set<string>();
  readonly #verdicts = new Map<string, InvariantResult | Promise<InvariantResult>>();
  readonly #records = new Map<string, Promise<void>>();

  constructor(
    private readonly harness: Client,
    private readonly request: DriveRequest,
  ) {}

  activities(): HostActivities {
    return {
      drivenRunStarted: async (run) => this.#heardStarted(callerId(), run),
      // Heartbeating: the verdict of a run whose `run` process died while giving it is asked of the one that replaced it.
      drivenRunEnded: (run) =>
        heartbeating(() => {
          const child = callerId();
          const verdict = this.#heardEnded(child, run);
          void this.#record(child).catch(() => {});
          return verdict;
        }),
    };
  }

  #heardStarted(child: string, run: WireRun): void {
    if (this.#started.has(child)) return;
    this.#started.add(child);
    this.request.started(launchedOf(run));
  }

  #heardEnded(child: string, run: WireRun): InvariantResult | Promise<InvariantResult> {
    let verdict = this.#verdicts.get(child);
    if (!verdict) {
      verdict = this.request.ended(launchedOf(run));
      this.#verdicts.set(child, verdict);
    }
    return verdict;
  }

  /** Every child's record, those not heard of yet (a drive this process attached to) too. */
  async all(children: readonly string[]): Promise<void> {
    await Promise.all(children.map((child) => this.#record(child)));
  }

  #record(child: string): Promise<void> {
    let gathered = this.#records.get(child);
    if (!gathered) {
      gathered = this.harness.workflow
        .getHandle(child)
        .result()
        .then(async (driven: DrivenRun) => {
          // A run another invocation heard of (the drive attached to) is counted here too, so the tallies agree.
          this.#heardStarted(child, driven.run);
          this.#heardEnded(child, driven.run);
          await this.request.judged(launchedOf(driven.run), driven.record as RunRecord, driven.stoppedBecause);
        });
      this.#records.set(child, gathered);
    }
    return gathered;
  }
}

/** The run's child workflow: the one that called the host activity. */
function callerId(): string {
  const caller = Context.current().info.workflowExecution?.workflowId;
  if (!caller) throw new Error('a host activity of the drive called outside a workflow');
  return caller;
}

function launchedOf(run: WireRun): LaunchedRun {
  return { ...run, binary: run.binary as LaunchedRun['binary'], startedAt: new Date(run.startedAt), args: [] };
}
