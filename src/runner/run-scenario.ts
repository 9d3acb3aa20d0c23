/**
 * The runner: starts the environment, the mocks and a worker per binary in play; launches runs
 * as the scenario says; watches them (a PAYLOADS_TOO_LARGE retry loop or a run past its
 * timeout is stopped and said so); fetches every history along ContinueAsNew chains; judges
 * them; and returns the summary the reports render.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { startInProcessMocks } from '../../mocks/index.ts';
import { type CheckContext, checkRun, type InvariantResult, type LoadedHistory, loadHistory } from '../checks/index.ts';
import { type RunInput, WORKFLOW_TYPE } from '../contract/kernel-api.ts';
import { BLOB_LIMIT_BYTES, COMPACTION_TRIGGER_BYTES, CONTINUE_AS_NEW_BYTES, HISTORY_SIZE_LIMIT_BYTES } from '../contract/limits.ts';
import { type Environment, startEnvironment } from '../environment/index.ts';
import type { BinaryId } from '../kernel/index.ts';
import type { RunRecord, Summary } from '../report/summary.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { durationMs } from '../scenario/scenario-schema.ts';
import { evaluateExpectations } from './expectations.ts';
import { fetchRunHistories } from './history-chain.ts';
import { startKernelWorkers } from './kernel-workers.ts';
import { replayHistories, replayTargets, replayVerdict } from './replay.ts';
import { drive, sleep } from './run-driver.ts';
import { buildRunRecord } from './run-record.ts';
import { percentile } from './stats.ts';

export interface Progress {
  runsDone: number;
  runsStarted: number;
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
}

/** Consecutive failed attempts of one workflow task that make a retry loop longrun stops. */
const RETRY_LOOP_ATTEMPTS = 3;
const WATCH_EVERY_MS = 250;
const MODELS = { agent: { model: 'longrun-agent' }, compaction: { model: 'longrun-compactor' } };

export async function runScenario(scenario: Scenario, options: RunScenarioOptions = {}): Promise<Summary> {
  if (!('binaries' in scenario.target)) {
    throw new Error(`scenario ${scenario.name}: external targets are judged with \`longrun check\`; runScenario drives kernel binaries`);
  }
  const binaries = scenario.target.binaries as BinaryId[];
  const signal = options.signal ?? new AbortController().signal;
  const startedAt = new Date();
  const env = options.environment ?? (await startEnvironment({ dynamicConfig: scenario.server.dynamicConfig }));
  const mocks = startInProcessMocks({ seed: scenario.seed, shape: scenario.shape as never, faults: scenario.faults as never });
  const records: RunRecord[] = [];
  let runsStarted = 0;
  let progressTimer: NodeJS.Timeout | undefined;
  try {
    const queuePrefix = `longrun-${scenario.name}-${startedAt.getTime().toString(36)}`;
    const workers = await startKernelWorkers(
      env,
      binaries,
      { modelBaseUrl: mocks.modelBaseUrl, sandboxBaseUrl: mocks.sandboxBaseUrl },
      queuePrefix,
    );
    const checkContext = checkContextOf(scenario, env);
    const runTimeoutMs = durationMs(scenario.runs.timeout);
    const runDurationMs = options.durationMs ?? (scenario.runs.duration !== undefined ? durationMs(scenario.runs.duration) : undefined);
    const runsTotal = runDurationMs === undefined ? scenario.runs.count * binaries.length : undefined;

    const report = () =>
      options.onProgress?.({
        runsDone: records.length,
        runsStarted,
        ...(runsTotal !== undefined ? { runsTotal } : {}),
        turns: mocks.recorder.records().filter((r) => r.target === 'agent' && r.status === 200).length,
        bytes: mocks.recorder.records().reduce((n, r) => n + (r.target === 'agent' ? r.requestBytes : 0), 0),
        violations: records.reduce((n, r) => n + r.invariants.filter((i) => i.status === 'fail').length, 0),
        elapsedMs: Date.now() - startedAt.getTime(),
      });
    if (options.onProgress) progressTimer = setInterval(report, options.progressEveryMs ?? 2_000);

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
      const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
        taskQueue: workers.taskQueue(binary),
        workflowId,
        args: [input],
        workflowExecutionTimeout: runTimeoutMs * 2,
      });
      const stoppedBecause = await watchRun(env.client, workflowId, runTimeoutMs, signal, workers.failed);
      const fetched = await fetchRunHistories(env.client, workflowId, handle.firstExecutionRunId);
      const loaded: LoadedHistory[] = fetched.map((f, i) => loadHistory(f.history, { source: `${workflowId} execution ${i + 1}` }));
      const verdict = checkRun(loaded, checkContext);
      const invariants: InvariantResult[] = [...verdict.results];
      const outcomes = await Promise.all(
        replayTargets(binary, binaries).map((target) =>
          replayHistories(
            target,
            workflowId,
            fetched.map((f) => f.history),
          ),
        ),
      );
      invariants.push(replayVerdict(outcomes));
      const record = buildRunRecord({
        workflowId,
        binary,
        startedAt: runStarted,
        finishedAt: new Date(),
        histories: loaded,
        historyBytes: fetched.map((f) => f.bytes),
        temporalRunIds: fetched.map((f) => f.temporalRunId),
        invariants,
        ...(stoppedBecause ? { stoppedBecause } : {}),
      });
      records.push(record);
      await options.onHistories?.(
        record,
        fetched.map((f) => f.history),
      );
    };

    await Promise.all(
      binaries.map((binary) =>
        drive(
          {
            count: scenario.runs.count,
            concurrency: scenario.runs.concurrency,
            ...(scenario.runs.arrivalRate ? { arrivalRate: scenario.runs.arrivalRate } : {}),
            ...(runDurationMs !== undefined ? { durationMs: runDurationMs } : {}),
            signal,
          },
          (index) => runOne(binary, index),
        ),
      ),
    );
    report();
    await workers.stop();
  } finally {
    if (progressTimer) clearInterval(progressTimer);
    mocks.close();
    if (!options.environment) await env.teardown();
  }
  return summarize(scenario, records, env, startedAt, signal.aborted, options.scenarioFile);
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
  const deadline = Date.now() + timeoutMs;
  let workerError: Error | undefined;
  workerFailed.catch((error: Error) => (workerError = error));
  for (;;) {
    const description = await handle.describe();
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
      await handle.terminate(why).catch(() => {});
      return why;
    }
    await sleep(WATCH_EVERY_MS, signal.aborted ? undefined : signal);
  }
}

function checkContextOf(scenario: Scenario, env: Environment): CheckContext {
  const serverBlob = Number(env.dynamicConfig?.['limit.blobSize.error'] ?? BLOB_LIMIT_BYTES);
  return {
    limits: { blobLimitBytes: serverBlob, ...scenario.limits },
    historySizeLimitBytes: Number(env.dynamicConfig?.['limit.historySize.error'] ?? HISTORY_SIZE_LIMIT_BYTES),
  };
}

function summarize(
  scenario: Scenario,
  runs: RunRecord[],
  env: Environment,
  startedAt: Date,
  partial: boolean,
  scenarioFile?: string,
): Summary {
  const finishedAt = new Date();
  const latencies = runs.flatMap((r) => r.turns.flatMap((t) => (t.latencyMs !== undefined ? [t.latencyMs] : [])));
  const expectations = evaluateExpectations(scenario.expect, runs);
  const violations = runs.reduce((n, r) => n + r.invariants.filter((i) => i.status === 'fail').length, 0);
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
    },
    runs,
    expectations,
    totals: {
      runs: runs.length,
      turns: runs.reduce((n, r) => n + r.turns.length, 0),
      requestBytes: runs.reduce((n, r) => n + r.turns.reduce((m, t) => m + t.requestBytes, 0), 0),
      violations,
      latency: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), p99: percentile(latencies, 0.99) },
    },
    passed: !partial && runs.length > 0 && expectations.every((e) => e.met),
  };
}
