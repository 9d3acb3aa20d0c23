/**
 * The runner: starts the environment, the mocks and a worker per binary in play (in worker
 * processes, with the chaos controller, when the scenario has chaos steps); launches runs as the
 * scenario says; watches them (a PAYLOADS_TOO_LARGE retry loop or a run past its timeout is
 * stopped and said so); fetches every history along ContinueAsNew chains; judges them; and
 * returns the summary the reports render. No process it starts outlives it, SIGTERM included.
 */
import { setMaxListeners } from 'node:events';
import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { type ChaosEvent, killAllChildren, planChaos } from '../chaos/index.ts';
import { buildRunView, type CheckContext, checkRunView, type InvariantResult, type LoadedHistory, loadHistory } from '../checks/index.ts';
import { type RunInput, WORKFLOW_TYPE } from '../contract/kernel-api.ts';
import {
  BLOB_LIMIT_BYTES,
  COMPACTION_TRIGGER_BYTES,
  CONTINUE_AS_NEW_BYTES,
  HISTORY_COUNT_LIMIT,
  HISTORY_SIZE_LIMIT_BYTES,
} from '../contract/limits.ts';
import type { Environment } from '../environment/index.ts';
import type { BinaryId } from '../kernel/index.ts';
import { MetricsSampler, serverPidFinder, soakVerdict } from '../load/index.ts';
import { type ExpectationRecord, type LoadMetrics, type RunRecord, type Summary, totalsOf } from '../result/index.ts';
import { rampOf } from '../scenario/index.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { durationMs } from '../scenario/scenario-schema.ts';
import { sleep } from '../shared/sleep.ts';
import { evaluateChaosRuns, evaluateExpectations, type StoppedRun } from './expectations.ts';
import { fetchRunHistories } from './history-chain.ts';
import { JudgingPool } from './judging-pool.ts';
import { closeReplayers, replayHistories, replayTargets, replayVerdict } from './replay.ts';
import { drive } from './run-driver.ts';
import { type RunHarness, startChaosHarness, startInProcessHarness } from './run-harness.ts';
import { buildRunRecord } from './run-record.ts';
import { whileServerDown } from './server-retry.ts';

export interface Progress {
  runsDone: number;
  runsStarted: number;
  /** Runs that have ended and are being judged (or wait for a judging place). */
  runsJudging: number;
  runsTotal?: number;
  turns: number;
  bytes: number;
  violations: number;
  elapsedMs: number;
}

export interface RunScenarioOptions {
  /** Stops launching, stops the runs in flight and returns a partial summary. */
  signal?: AbortSignal;
  /** Called every `progressEveryMs` (default 2 s) while runs are in flight. */
  onProgress?: (progress: Progress) => void;
  progressEveryMs?: number;
  /** An environment to use instead of starting one (it is not torn down). */
  environment?: Environment;
  /** Keeps the raw histories of every run (for saving the failing ones). */
  onHistories?: (record: RunRecord, histories: temporal.api.history.v1.IHistory[]) => void | Promise<void>;
  /** Overrides runs.duration (the `soak --duration` flag). */
  durationMs?: number;
  scenarioFile?: string;
  /** Chaos scenarios: every process started (with its pid) and every strike, as they happen. */
  onChaosEvent?: (event: ChaosEvent) => void;
}

/** Consecutive failed attempts of one workflow task that make a retry loop longrun stops. */
const RETRY_LOOP_ATTEMPTS = 3;
const WATCH_EVERY_MS = 250;
/** Runs judged at once, beside the runs in flight (one per core of a small CI machine). */
const JUDGED_AT_ONCE = 2;
/** The models every run is given (the agent's model name is part of every request's bytes). */
export const MODELS = { agent: { model: 'longrun-agent' }, compaction: { model: 'longrun-compactor' } };
/** How long a call waits for a server that is down (a chaos restart takes seconds). */
const SERVER_DOWN_TOLERANCE_MS = 60_000;
const TERMINATION_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

export async function runScenario(scenario: Scenario, options: RunScenarioOptions = {}): Promise<Summary> {
  if (!('binaries' in scenario.target)) {
    throw new Error(`scenario ${scenario.name}: external targets are judged with \`longrun check\`; runScenario drives kernel binaries`);
  }
  const targetBinaries = scenario.target.binaries;
  const chaos = scenario.chaos.length > 0 ? planChaos(scenario) : undefined;
  const inPlay = chaos?.binaries ?? targetBinaries;
  const interrupt = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, interrupt.signal]) : interrupt.signal;
  // Every run in flight waits on it between watches: many listeners are the design, not a leak.
  setMaxListeners(0, signal);
  const startedAt = new Date();
  const queuePrefix = `longrun-${scenario.name}-${startedAt.getTime().toString(36)}`;
  // Only strikes need worker processes; forced replay alone runs in this process.
  const strikes = chaos && chaos.steps.length > 0 ? chaos : undefined;
  const signals = strikes ? watchTerminationSignals(interrupt) : undefined;
  const records: RunRecord[] = [];
  const stopped: StoppedRun[] = [];
  let chaosVerdict: ExpectationRecord[] = [];
  let runsStarted = 0;
  let runsEnded = 0;
  let progressTimer: NodeJS.Timeout | undefined;
  let sampler: MetricsSampler | undefined;
  let load: LoadMetrics | undefined;
  let harness: RunHarness | undefined;
  let finished = false;
  const judging = new JudgingPool(JUDGED_AT_ONCE);
  try {
    harness = strikes
      ? await startChaosHarness(scenario, strikes, queuePrefix, {
          ...(options.environment ? { environment: options.environment } : {}),
          ...(options.onChaosEvent ? { onEvent: options.onChaosEvent } : {}),
        })
      : await startInProcessHarness(scenario, targetBinaries, queuePrefix, {
          ...(options.environment ? { environment: options.environment } : {}),
          forceReplay: chaos?.forceReplay ?? false,
        });
    const { env, mocks, workers, failed, servedBy } = harness;
    const checkContext = checkContextOf(scenario, env);
    const runTimeoutMs = durationMs(scenario.runs.timeout);
    const runDurationMs = options.durationMs ?? (scenario.runs.duration !== undefined ? durationMs(scenario.runs.duration) : undefined);
    const runsTotal = runDurationMs === undefined ? scenario.runs.count * targetBinaries.length : undefined;

    const report = () =>
      options.onProgress?.({
        runsDone: records.length,
        runsStarted,
        runsJudging: runsEnded - records.length,
        ...(runsTotal !== undefined ? { runsTotal } : {}),
        turns: mocks.recorder.records().filter((r) => r.target === 'agent' && r.status === 200).length,
        bytes: mocks.recorder.records().reduce((n, r) => n + (r.target === 'agent' ? r.requestBytes : 0), 0),
        violations: records.reduce((n, r) => n + r.invariants.filter((i) => i.status === 'fail').length, 0),
        elapsedMs: Date.now() - startedAt.getTime(),
      });
    if (options.onProgress) progressTimer = setInterval(report, options.progressEveryMs ?? 2_000);
    const ramp = scenario.runs.ramp ? rampOf(scenario.runs.ramp, durationMs) : undefined;
    const serverPid = serverPidFinder(env);
    sampler = new MetricsSampler({
      ...(serverPid ? { serverPid } : {}),
      ...(harness.workerPid ? { workerPid: harness.workerPid } : {}),
      counters: () => ({ runsStarted, runsDone: records.length, turns: records.reduce((n, r) => n + r.turns.length, 0) }),
      ...(ramp ? { ramp } : {}),
      ...(scenario.soak?.warmup !== undefined ? { warmupMs: durationMs(scenario.soak.warmup) } : {}),
    });
    sampler.start();

    const runOne = async (binary: BinaryId, index: number) => {
      runsStarted++;
      const runId = `${scenario.name}-run-${String(index).padStart(4, '0')}`;
      const plan = mocks.planFor(runId);
      const input: RunInput = {
        runId,
        systemPrompt: plan.systemPrompt,
        userRequest: plan.userRequest,
        settings: MODELS,
        maxTurns: scenario.runs.maxTurns,
        limits: scenario.limits,
      };
      const workflowId = `${runId}-${binary}-${startedAt.getTime().toString(36)}`;
      const runStarted = new Date();
      const firstRunId = await startRun(env.client, workflowId, {
        taskQueue: workers.taskQueue(binary),
        workflowId,
        args: [input],
        workflowExecutionTimeout: runTimeoutMs * 2,
      });
      const stoppedBecause = await watchRun(env.client, workflowId, runTimeoutMs, signal, failed);
      runsEnded++;
      await judging.submit(() => judgeRun({ workflowId, firstRunId, runId, binary, runStarted, stoppedBecause }));
    };

    const judgeRun = async (run: {
      workflowId: string;
      firstRunId: string;
      runId: string;
      binary: BinaryId;
      runStarted: Date;
      stoppedBecause: string | undefined;
    }) => {
      const { workflowId, binary, stoppedBecause } = run;
      const fetched = await whileServerDown(() => fetchRunHistories(env.client, workflowId, run.firstRunId), SERVER_DOWN_TOLERANCE_MS);
      const histories = fetched.map((f) => f.history);
      // A run that a newer binary took over is judged as that binary's, with the gate opening where it took over.
      const served = servedBy(binary, histories);
      const ranOn = served.at(-1) ?? binary;
      const tookOver = served.length > 1 || ranOn !== binary;
      // The replay runs on the replayers' threads while this one checks the histories.
      const targets = tookOver ? [ranOn] : replayTargets(binary, inPlay);
      const replayed = Promise.all(targets.map((target) => replayHistories(target, workflowId, histories)));
      replayed.catch(() => {}); // awaited below; a check that throws first must not leave it unhandled
      const loaded: LoadedHistory[] = histories.map((history, i) => loadHistory(history, { source: `${workflowId} execution ${i + 1}` }));
      const view = buildRunView(loaded);
      const verdict = checkRunView(view, tookOver ? { ...checkContext, gateOpens: 'at-marker' } : checkContext);
      const invariants: InvariantResult[] = [...verdict.results];
      invariants.push(replayVerdict(await replayed));
      const record = buildRunRecord({
        workflowId,
        binary: ranOn,
        startedAt: run.runStarted,
        finishedAt: new Date(),
        view,
        historyBytes: fetched.map((f) => f.bytes),
        temporalRunIds: fetched.map((f) => f.temporalRunId),
        invariants,
        ...(stoppedBecause ? { stoppedBecause } : {}),
      });
      records.push(record);
      sampler?.addRun(record);
      if (stoppedBecause) stopped.push({ runId: run.runId, binary: ranOn, why: stoppedBecause });
      await options.onHistories?.(record, histories);
    };

    harness.startChaos();
    await Promise.all(
      targetBinaries.map((binary) =>
        drive(
          {
            count: scenario.runs.count,
            concurrency: scenario.runs.concurrency,
            ...(scenario.runs.arrivalRate ? { arrivalRate: scenario.runs.arrivalRate } : {}),
            ...(runDurationMs !== undefined ? { durationMs: runDurationMs } : {}),
            ...(ramp ? { ramp } : {}),
            signal,
          },
          (index) => runOne(binary, index),
        ),
      ),
    );
    await judging.drain();
    load = sampler.stop();
    chaosVerdict = [...(await harness.stopChaos()), ...(chaos ? evaluateChaosRuns(scenario.expect, records, stopped) : [])];
    report();
    finished = !signal.aborted;
  } finally {
    // After a failure, the judgings in flight end before the replayers and the server go.
    await judging.drain().catch(() => {});
    await closeReplayers();
    if (progressTimer) clearInterval(progressTimer);
    // After a failure, the runs still in flight stop watching and nothing new starts.
    if (!finished) interrupt.abort();
    await harness?.close(finished);
    signals?.release();
  }
  const soakVerdicts = scenario.soak && load ? soakVerdict(scenario.soak, load) : [];
  return summarize(
    scenario,
    records,
    [...chaosVerdict, ...soakVerdicts],
    harness.env,
    startedAt,
    signal.aborted,
    options.scenarioFile,
    load,
  );
}

/**
 * While chaos processes run, SIGTERM and SIGINT kill them at once and interrupt the scenario.
 * Where nobody else listens for the signal, it is raised again once the runner has cleaned up,
 * so the process still ends as the signal's default says.
 */
function watchTerminationSignals(interrupt: AbortController): { release(): void } {
  let raise: NodeJS.Signals | undefined;
  const listeners = TERMINATION_SIGNALS.map((name) => {
    const alone = process.listenerCount(name) === 0;
    const listener = () => {
      killAllChildren();
      interrupt.abort();
      if (alone) raise = name;
    };
    process.on(name, listener);
    return { name, listener };
  });
  return {
    release() {
      for (const { name, listener } of listeners) process.off(name, listener);
      if (raise) process.kill(process.pid, raise);
    },
  };
}

/** Starts a run, through a server that may be down for a moment; the id of its first execution. */
async function startRun(client: Client, workflowId: string, options: Parameters<Client['workflow']['start']>[1]): Promise<string> {
  try {
    return await whileServerDown(
      async () => (await client.workflow.start(WORKFLOW_TYPE, options)).firstExecutionRunId,
      SERVER_DOWN_TOLERANCE_MS,
    );
  } catch (error) {
    // The server took a start whose answer was lost on the way back.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    return (await client.workflow.getHandle(workflowId).describe()).runId;
  }
}

/** Waits for the run to close; stops it (and says why) on a retry loop, a timeout or an abort. */
async function watchRun(
  client: Client,
  workflowId: string,
  timeoutMs: number,
  signal: AbortSignal,
  workerFailed: Promise<never>,
): Promise<string | undefined> {
  const handle = client.workflow.getHandle(workflowId);
  // The result's long poll wakes the watch the moment the run's last execution closes; the
  // describe poll stays for what only it sees (a retry loop, the timeout). It wakes it once: a
  // result that failed for a server restart must not turn the poll into a spin. It is cancelled
  // when the watch ends: a long poll left retrying would outlive the connection.
  const longPoll = new AbortController();
  // Every call of the long poll listens on it while the run lasts: many listeners are the design.
  setMaxListeners(0, longPoll.signal);
  let closed: Promise<void> | undefined = client
    .withAbortSignal(longPoll.signal, () => handle.result())
    .then(
      () => {},
      () => {},
    );
  const deadline = Date.now() + timeoutMs;
  let workerError: Error | undefined;
  workerFailed.catch((error: Error) => (workerError = error));
  try {
    for (;;) {
      const description = await whileServerDown(() => handle.describe(), SERVER_DOWN_TOLERANCE_MS);
      if (description.status.name !== 'RUNNING') return undefined;
      const attempt = description.raw.pendingWorkflowTask?.attempt ?? 0;
      const why =
        attempt >= RETRY_LOOP_ATTEMPTS
          ? `longrun stopped a workflow task retry loop (attempt ${attempt})`
          : Date.now() > deadline
            ? `longrun stopped the run after its timeout of ${Math.round(timeoutMs / 1000)} s`
            : signal.aborted
              ? 'longrun was interrupted'
              : workerError
                ? `longrun's worker died: ${workerError.message}`
                : undefined;
      if (why) {
        // The history shows no attempt of a pending activity: the reason keeps what was stuck.
        const reason = `${why}${pendingWork(description.raw)}`;
        await whileServerDown(() => handle.terminate(reason), SERVER_DOWN_TOLERANCE_MS).catch(() => {});
        return reason;
      }
      const pause = sleep(WATCH_EVERY_MS, signal.aborted ? undefined : signal);
      if (closed) await Promise.race([pause, closed.then(() => (closed = undefined))]);
      else await pause;
    }
  } finally {
    longPoll.abort();
  }
}

/** "; pending: kernel.compact_context attempt 14 (last failure: ...)" for the activities a stopped run waited on. */
function pendingWork(description: temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse): string {
  const pending = (description.pendingActivities ?? []).map((activity) => {
    const failure = activity.lastFailure?.message ? ` (last failure: ${activity.lastFailure.message.split('\n')[0]?.slice(0, 200)})` : '';
    return `${activity.activityType?.name ?? 'activity'} attempt ${activity.attempt ?? 1}${failure}`;
  });
  return pending.length > 0 ? `; pending: ${pending.join(', ')}` : '';
}

function checkContextOf(scenario: Scenario, env: Environment): CheckContext {
  const serverBlob = Number(env.dynamicConfig?.['limit.blobSize.error'] ?? BLOB_LIMIT_BYTES);
  return {
    runTimeoutMs: durationMs(scenario.runs.timeout),
    limits: { blobLimitBytes: serverBlob, ...scenario.limits },
    historySizeLimitBytes: Number(env.dynamicConfig?.['limit.historySize.error'] ?? HISTORY_SIZE_LIMIT_BYTES),
    historyCountLimit: Number(env.dynamicConfig?.['limit.historyCount.error'] ?? HISTORY_COUNT_LIMIT),
  };
}

function summarize(
  scenario: Scenario,
  runs: RunRecord[],
  chaosVerdict: ExpectationRecord[],
  env: Environment,
  startedAt: Date,
  partial: boolean,
  scenarioFile?: string,
  load?: LoadMetrics,
): Summary {
  const finishedAt = new Date();
  const expectations = [...evaluateExpectations(scenario.expect, runs), ...chaosVerdict];
  return {
    scenario: scenario.name,
    ...(scenarioFile ? { scenarioFile } : {}),
    seed: scenario.seed,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    partial,
    environment: env.description,
    limits: {
      blobLimitBytes: scenario.limits.blobLimitBytes ?? Number(env.dynamicConfig?.['limit.blobSize.error'] ?? BLOB_LIMIT_BYTES),
      compactionTriggerBytes: scenario.limits.compactionTriggerBytes ?? COMPACTION_TRIGGER_BYTES,
      continueAsNewBytes: scenario.limits.continueAsNewBytes ?? CONTINUE_AS_NEW_BYTES,
      historySizeLimitBytes: Number(env.dynamicConfig?.['limit.historySize.error'] ?? HISTORY_SIZE_LIMIT_BYTES),
      historyCountLimit: Number(env.dynamicConfig?.['limit.historyCount.error'] ?? HISTORY_COUNT_LIMIT),
    },
    runs,
    expectations,
    totals: totalsOf(runs),
    ...(load ? { load } : {}),
    passed: !partial && runs.length > 0 && expectations.every((e) => e.met),
  };
}
