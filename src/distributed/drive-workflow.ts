/**
 * Workflow code (bundled, deterministic): a scenario's drive on a harness task queue
 * (docs/decisions/driving-on-the-queue.md). The driver holds the schedule with workflow timers
 * and runs one child per run: started and watched by activities on the harness queue, its
 * mocks' verdict asked of the `run` process on its host queue, then judged by the judging
 * workflow. A harness worker that takes the drive over rebuilds it by replay; past a bound of
 * runs it continues as new. It imports the workflow SDK and workflow-safe files only.
 */
import { continueAsNew, executeChild, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import { type ArrivalPosition, arrive } from '../shared/arrival-loop.ts';
import { type DriveCarry, type DriveOutcome, runsPerExecutionOf, type SharePosition, sharesInOrder } from './drive-hand-over.ts';
import { drivenRunWorkflowId, judgingWorkflowId } from './harness-ids.ts';
import { JUDGING_HEARTBEAT_TIMEOUT_MS, judgeRunWorkflow } from './judging-workflow.ts';

/** A run as it travels between the drive's steps: `LaunchedRun` as JSON, without its arguments. */
export interface WireRun {
  runId: string;
  workflowId: string;
  firstRunId: string;
  binary: string;
  /** ISO 8601. */
  startedAt: string;
}

/** What a drive needs to start, watch and judge its runs; the resolved scenario travels as JSON. */
export interface DriveInput {
  /** The runs' namespace (the harness's may be another). */
  namespace: string;
  /** The resolved scenario: each run's input is planned from it, as its mocks plan it. */
  scenario: { name: string; seed: number; [field: string]: unknown };
  binaries: string[];
  /** The task queue each binary's runs start on. */
  taskQueues: Record<string, string>;
  startedAtMs: number;
  schedule: { count: number; concurrency: number; arrivalRate?: number; durationMs?: number; offsetsMs?: number[] };
  timeoutMs: number;
  /** The `run` process's own queue: the mocks' verdicts and the news of each run. */
  hostQueue: string;
  checkContext: unknown;
  inPlay: string[];
  /** Runs an execution of the driver starts before it continues as new (DEFAULT_RUNS_PER_EXECUTION). */
  runsPerExecution?: number;
  /** Where the execution the driver continued from left the drive. */
  carried?: DriveCarry;
}

export type DrivenRunInput = Omit<DriveInput, 'schedule' | 'binaries' | 'runsPerExecution' | 'carried'> & { binary: string; index: number };

export type StartInput = Pick<DrivenRunInput, 'namespace' | 'scenario' | 'taskQueues' | 'startedAtMs' | 'binary' | 'index'>;

/** A run driven: its record as the judging returned it, and why longrun stopped it, if it did. */
export interface DrivenRun {
  run: WireRun;
  stoppedBecause?: string;
  record: unknown;
}

/** The activities a harness worker serves (drive-activities.ts). */
export interface DriveActivities {
  startDrivenRun(input: StartInput): Promise<WireRun>;
  watchDrivenRun(input: { namespace: string; run: WireRun; timeoutMs: number }): Promise<string | null>;
}

/** The activities the `run` process serves on its host queue (queue-driver.ts). */
export interface HostActivities {
  drivenRunStarted(run: WireRun): Promise<void>;
  /** The mocks' `requests.accepted` verdict of a run that ended. */
  drivenRunEnded(run: WireRun): Promise<unknown>;
}

const RETRY = { initialInterval: '1 second', maximumInterval: '10 seconds' };

const { startDrivenRun } = proxyActivities<DriveActivities>({
  startToCloseTimeout: '1 minute',
  retry: { ...RETRY, maximumAttempts: 5 },
});

/** Heartbeats, as the judging does: a watch whose harness worker died is taken over by another. */
function watcher(timeoutMs: number) {
  return proxyActivities<DriveActivities>({
    // Past it the run's own execution timeout (twice runs.timeout) has ended it anyway.
    startToCloseTimeout: timeoutMs * 2 + 60_000,
    heartbeatTimeout: JUDGING_HEARTBEAT_TIMEOUT_MS,
    retry: { ...RETRY, maximumAttempts: 5 },
    // Cancelled, the watch stops its run before the drive goes.
    cancellationType: 'WAIT_CANCELLATION_COMPLETED',
  }).watchDrivenRun;
}

/**
 * On the `run` process's queue: tried until a `run` process serves it (one that attaches, if this
 * one died). Heartbeats: one the dead process had taken is tried again on the one that replaced
 * it after 10 s, not after its start-to-close minute.
 */
function host(hostQueue: string) {
  return proxyActivities<HostActivities>({
    taskQueue: hostQueue,
    startToCloseTimeout: '1 minute',
    heartbeatTimeout: JUDGING_HEARTBEAT_TIMEOUT_MS,
    retry: RETRY,
  });
}

/**
 * A scenario's runs on its schedule, each binary's share apart; where each share ended, which
 * names the runs' children of every execution (childrenOfDrive). Past its bound of runs (or once the server
 * suggests it) it starts no more, waits for the runs in flight to end, and continues as new from
 * where each share got to (drive-hand-over.ts).
 */
export async function driveScenarioWorkflow(input: DriveInput): Promise<DriveOutcome> {
  const { schedule, binaries, runsPerExecution, carried, ...each } = input;
  const { offsetsMs, ...arrivals } = schedule;
  const bound = runsPerExecutionOf(input);
  let startedHere = 0;
  // The bound counts this execution's starts: its history holds about ten events for each.
  const handOverDue = () => startedHere >= bound || workflowInfo().continueAsNewSuggested;
  const clock = { now: () => Date.now(), sleep: (ms: number) => sleep(ms), stopped: handOverDue };
  const driveId = workflowInfo().workflowId;
  const executions = carried?.executions ?? 0;
  const positions: Record<string, ArrivalPosition> = {};
  const running: Promise<unknown>[] = [];
  try {
    await Promise.all(
      sharesInOrder(binaries, executions).map(async (binary) => {
        const from = carried?.shares[binary];
        const offsets = offsetsMs ? { offsetMs: (index: number) => offsetsMs[index] } : {};
        positions[binary] = await arrive({ ...arrivals, ...offsets, ...(from ? { from } : {}) }, clock, async (index) => {
          startedHere++;
          const workflowId = drivenRunWorkflowId(driveId, input.startedAtMs, binary, index);
          const child = executeChild(driveRunWorkflow, { workflowId, args: [{ ...each, binary, index }] });
          running.push(child);
          await child;
        });
      }),
    );
  } finally {
    // Cancelled, the drive ends once every child has stopped its run: a child the drive's end terminated would leave it running.
    await Promise.allSettled(running);
  }
  // Every child of this execution has ended: continuing as new (which would terminate a child still running) loses none.
  const shares = Object.fromEntries(binaries.map((binary) => [binary, positionOf(positions[binary])]));
  if (binaries.some((binary) => !positions[binary]?.done)) {
    await continueAsNew<typeof driveScenarioWorkflow>({ ...input, carried: { shares, executions: executions + 1 } });
  }
  return { startedAtMs: input.startedAtMs, shares };
}

function positionOf(position: ArrivalPosition | undefined): SharePosition {
  if (!position) throw new Error('a share of the drive ended without its position');
  return { next: position.next, startedAtMs: position.startedAtMs };
}

/** One run: started, watched until it closes, its mocks' verdict asked for, judged. */
export async function driveRunWorkflow(input: DrivenRunInput): Promise<DrivenRun> {
  const tell = host(input.hostQueue);
  const { namespace, scenario, taskQueues, startedAtMs, binary, index } = input;
  const run = await startDrivenRun({ namespace, scenario, taskQueues, startedAtMs, binary, index });
  await tell.drivenRunStarted(run);
  const stoppedBecause = (await watcher(input.timeoutMs)({ namespace: input.namespace, run, timeoutMs: input.timeoutMs })) ?? undefined;
  const requestsAccepted = await tell.drivenRunEnded(run);
  const record = await executeChild(judgeRunWorkflow, {
    workflowId: judgingWorkflowId(input.scenario, run.workflowId),
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    args: [
      {
        namespace: input.namespace,
        scenario: { name: input.scenario.name, seed: input.scenario.seed },
        run,
        ...(stoppedBecause ? { stoppedBecause } : {}),
        checkContext: input.checkContext,
        inPlay: input.inPlay,
        requestsAccepted,
      },
    ],
  });
  return { run, ...(stoppedBecause ? { stoppedBecause } : {}), record };
}
