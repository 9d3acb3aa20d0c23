/**
 * The runner: starts the environment, the mocks and a worker per binary in play (in worker
 * processes, with the chaos controller, when the scenario has chaos steps); launches runs as the
 * scenario says, watches each until it ends (or stops it and says why), judges it, and returns
 * the summary the reports render (README.md beside this file). No process it starts outlives
 * it. It changes no process-wide signal handling: a caller stops it through `signal` and may
 * kill its chaos processes at once from its own signal handler (`killAllChildren`).
 */
import { setMaxListeners } from 'node:events';
import { relative, resolve } from 'node:path';
import type { temporal } from '@temporalio/proto';
import { type ChaosEvent, planChaos } from '../chaos/index.ts';
import type { KernelMapping } from '../checks/index.ts';
import { stoppedByInterrupt } from '../contract/interrupted.ts';
import { type Environment, SERVICES } from '../environment/index.ts';
import { type BinaryName, isBinaryId } from '../kernel/index.ts';
import { MetricsSampler, serverPidFinder, servicePidsFinder, soakVerdict } from '../load/index.ts';
import type { ExpectationRecord, LoadMetrics, RunRecord, Summary } from '../result/index.ts';
import type { Conversation } from '../scenario/conversation.ts';
import type { ExternalTarget } from '../scenario/external-target.ts';
import type { Ramp } from '../scenario/index.ts';
import { durationMs, type Scenario } from '../scenario/scenario-schema.ts';
import { carriesUserRequest } from '../scenario/start-args.ts';
import { throwIfInterrupted } from '../shared/interrupted.ts';
import { type ConversationOutcome, type ConverseContext, converse } from './converse.ts';
import { type RunDriver, scheduleOf } from './driven-elsewhere.ts';
import type { StartDeclaration } from './early-end.ts';
import { evaluateChaosRuns } from './expectations.ts';
import { externalSetup, startExternalHarness } from './external-harness.ts';
import { foreignReplayPlan } from './foreign-replay.ts';
import { HistoryStreams, type RunHistoryStream } from './history-stream.ts';
import { type JudgedRun, judgeRun, judgingFetchOptions, wholeHistories } from './judge.ts';
import { judgedElsewhereRefusal, type RunJudge } from './judged-elsewhere.ts';
import { JUDGED_AT_ONCE, JUDGED_ELSEWHERE_AT_ONCE, JudgingPool } from './judging-pool.ts';
import { type LaunchedRun, launchRun, startValuesOf } from './launch.ts';
import { checkContextOf, resolveLimits } from './limits.ts';
import { mockReplicasRefusal, probeReplicas, ReplicaVerdicts, resolveMockReplicas } from './mock-replicas.ts';
import { holdReplayers, kernelReplayPlan } from './replay.ts';
import { RequestRefusals } from './request-refusals.ts';
import { drive, driveOptionsOf } from './run-driver.ts';
import { type RunHarness, startHarness } from './run-harness.ts';
import { type Progress, RunTally } from './run-tally.ts';
import { watchServer } from './server-watch.ts';
import { RunStores } from './stored-payloads.ts';
import { inputTokensOf, summarize } from './summarize.ts';
import { watchRun } from './watch.ts';

export type { Progress };

export interface RunScenarioOptions {
  /** Stops launching, stops the runs in flight and returns a partial summary. */
  signal?: AbortSignal;
  /** Called every `progressEveryMs` (default 2 s) while runs are in flight. */
  onProgress?: (progress: Progress) => void;
  progressEveryMs?: number;
  /** An environment to use instead of starting one (it is not torn down). */
  environment?: Environment;
  /**
   * Called with every run judged; `histories` fetches its raw histories from the server (for
   * saving the failing ones): the judging keeps none whole, a max-size run's are ~170 MB.
   */
  onHistories?: (record: RunRecord, histories: () => Promise<temporal.api.history.v1.IHistory[]>) => void | Promise<void>;
  /** Overrides runs.duration (the `soak --duration` flag). */
  durationMs?: number;
  scenarioFile?: string;
  /** Chaos scenarios: every process started (with its pid) and every strike, as they happen. */
  onChaosEvent?: (event: ChaosEvent) => void;
  /**
   * Runs the kernel's workers in processes of their own, as chaos does, even with no chaos step,
   * so that their memory and CPU are measured apart from longrun's (`onChaosEvent` names their
   * pids). Default false: in this process, which is faster.
   */
  workersApart?: boolean;
  /**
   * Judges each run elsewhere (src/distributed/: on a harness task queue) instead of in this
   * process; the runs still start and are watched here. Refused for a scenario whose judging
   * needs more than its histories (judged-elsewhere.ts).
   */
  judgeElsewhere?: RunJudge;
  /**
   * Drives the runs elsewhere (src/distributed/: a driver workflow on a harness task queue):
   * started, watched and judged there, this process keeping the mocks and the kernel's workers.
   * Refused where `judgeElsewhere` is.
   */
  driveElsewhere?: RunDriver;
  /**
   * `longrun mock-server` replicas (base URLs) the runs' model and sandbox traffic goes to:
   * this process's workers talk to the first, workers elsewhere to theirs, and each run's
   * `requests.accepted` is gathered from all of them (mock-replicas.ts). Default: none, the
   * mocks of this process. Refused with chaos steps, `workersApart` or a foreign target.
   */
  mockReplicas?: readonly string[];
}

export async function runScenario(scenario: Scenario, options: RunScenarioOptions = {}): Promise<Summary> {
  const external = 'external' in scenario.target ? scenario.target.external : undefined;
  // Read before anything starts: a foreign target's mapping file and its commands' folders.
  const foreign = external ? externalSetup(external, options.scenarioFile) : undefined;
  const kernelBinaries = 'binaries' in scenario.target ? scenario.target.binaries : [];
  const targetBinaries: BinaryName[] = foreign ? foreign.launched : kernelBinaries;
  const chaos = scenario.chaos.length > 0 ? planChaos(scenario) : undefined;
  const elsewhere = options.judgeElsewhere;
  const driver = options.driveElsewhere;
  const refusal = (elsewhere || driver) && judgedElsewhereRefusal(scenario, Boolean(chaos?.steps.length || options.workersApart));
  if (refusal) throw new Error(refusal);
  const replicas = resolveMockReplicas(options.mockReplicas);
  const replicaRefusal = replicas && mockReplicasRefusal(scenario, Boolean(chaos?.steps.length || options.workersApart));
  if (replicaRefusal) throw new Error(replicaRefusal);
  // A replica down before any run starts is named now, before the server starts.
  if (replicas) await probeReplicas(replicas);
  // Aborted after a failure, so that the runs still in flight stop watching and nothing new starts.
  const failure = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, failure.signal]) : failure.signal;
  // Every run in flight waits on it between watches: many listeners are the design, not a leak.
  setMaxListeners(0, signal);
  const startedAt = new Date();
  const queuePrefix = driver?.queuePrefix(scenario) ?? `longrun-${scenario.name}-${startedAt.getTime().toString(36)}`;
  const harness =
    external && foreign
      ? await startExternalHarness(scenario, external, foreign, queuePrefix, options)
      : await startHarness(scenario, chaos, kernelBinaries, queuePrefix, { ...options, ...(replicas ? { mockReplicas: replicas } : {}) });
  // An abort before any run started leaves nothing to judge: all of it goes, and the caller hears so.
  if (options.signal?.aborted) {
    await harness.close(false);
    throwIfInterrupted(options.signal, 'starting the server and the workers');
  }
  const { env, mocks, workers } = harness;
  // A server chaos restarts is down on purpose; any other that exits is gone for good. A service
  // of server.topology services that falls over unasked is not watched: its runs do not end.
  const serverWatch = chaos?.restartsServer || env.services ? undefined : watchServer(env);
  const limits = resolveLimits(scenario, env.dynamicConfig);
  const tally = new RunTally();
  const judging = new JudgingPool(elsewhere ? JUDGED_ELSEWHERE_AT_ONCE : JUDGED_AT_ONCE);
  let progressTimer: NodeJS.Timeout | undefined;
  let verdicts: ExpectationRecord[] = [];
  let load: LoadMetrics | undefined;
  let finished = false;
  // Runs the scenario asks for (undefined: as many as its duration starts).
  let runsTotal: number | undefined;
  const releaseReplayers = holdReplayers();
  const refusals = new RequestRefusals(mocks.recorder);
  // On replicas, each run's requests are read from them once it has ended (this process's recorder heard none).
  const gathered = replicas ? new ReplicaVerdicts(replicas) : undefined;
  const requestRecords = () => gathered?.records ?? mocks.recorder.records();
  const streams = new HistoryStreams();
  try {
    const launchContext = {
      client: env.client,
      scenario,
      planFor: (runId: string) => mocks.planFor(runId),
      taskQueue: (binary: BinaryName) => workers.taskQueue(binary),
      ...(external ? { workflowType: external.workflowType, startArgs: external.args } : {}),
      startedAt,
    };
    const watchOptions = { timeoutMs: durationMs(scenario.runs.timeout), signal, workerFailed: harness.failed };
    const checkContext = checkContextOf(scenario, limits);
    const inPlay = chaos?.binaries.filter(isBinaryId) ?? kernelBinaries;
    // Judged elsewhere, this process starts no replayer and reads no history while runs go on.
    const judgeContext =
      elsewhere || driver
        ? undefined
        : {
            client: env.client,
            checkContext,
            replays: foreign ? foreignReplayPlan(foreign.commands) : kernelReplayPlan(inPlay, harness.offload?.target),
            servedBy: harness.servedBy,
            ...(foreign ? { mapping: foreign.mapping } : {}),
            refusals: gathered ?? refusals,
            ...(external && foreign ? { start: startDeclaration(external, foreign.mapping, options.scenarioFile) } : {}),
            ...(harness.offload ? { stores: new RunStores(harness.offload.target) } : {}),
          };
    const judgeOne = async (
      run: LaunchedRun,
      stoppedBecause: string | undefined,
      stream: RunHistoryStream | undefined,
      conversation: ConversationOutcome | undefined,
    ): Promise<JudgedRun> => {
      if (judgeContext) return judgeRun(judgeContext, run, stoppedBecause, stream, conversation);
      const record = await (elsewhere as RunJudge)({
        client: env.client,
        scenario,
        run,
        ...(stoppedBecause ? { stoppedBecause } : {}),
        checkContext,
        inPlay,
        requestsAccepted: await requestsAccepted(run),
      });
      return { record, histories: () => wholeHistories(env.client, run) };
    };
    const requestsAccepted = (run: LaunchedRun) =>
      (gathered ?? refusals).verdict(run.runId, [run.binary, ...harness.servedBy(run.binary, [])]);
    const keep = async (run: LaunchedRun, { record, histories }: JudgedRun, stoppedBecause: string | undefined) => {
      tally.add(run.runId, record, stoppedBecause);
      sampler.addRun(record);
      await options.onHistories?.(record, histories);
    };
    const conversationContext = (target: ExternalTarget, run: LaunchedRun): ConverseContext => ({
      client: env.client,
      conversation: target.conversation as Conversation,
      plan: mocks.planFor(run.runId),
      startValues: startValuesOf(launchContext, run.runId),
      startCarriesRequest: carriesUserRequest(target.args),
      recorder: mocks.recorder,
      signal,
    });
    const launches = driveOptionsOf(scenario, signal, options.durationMs);
    runsTotal = launches.durationMs === undefined ? scenario.runs.count * targetBinaries.length : undefined;
    const report = () => options.onProgress?.(tally.progress(requestRecords(), Date.now() - startedAt.getTime(), runsTotal));
    if (options.onProgress) progressTimer = setInterval(report, options.progressEveryMs ?? 2_000);
    const sampler = startSampler(scenario, harness, tally, launches.ramp);
    const runOne = async (binary: BinaryName, index: number) => {
      tally.runsStarted++;
      const run = await launchRun(launchContext, binary, index);
      // A chat agent's messages go on while the watch waits for the run's end (the last one ends it).
      const talking = external?.conversation ? converse(conversationContext(external, run), run) : undefined;
      // Its histories are read while it runs (a few runs at once), so that its judging does not wait for them.
      const stream =
        judgeContext && streams.open(env.client, run.workflowId, run.firstRunId, judgingFetchOptions(judgeContext, run.workflowId));
      let handedOver = false;
      try {
        const stoppedBecause = await watchRun(env.client, run.workflowId, {
          ...watchOptions,
          ...(stream ? { closed: stream.closed } : {}),
        });
        const conversation = await talking;
        tally.runsEnded++;
        await judging.submit(async () => {
          try {
            await keep(run, await judgeOne(run, stoppedBecause, stream, conversation), stoppedBecause);
          } finally {
            stream?.close();
          }
        });
        handedOver = true;
      } finally {
        if (!handedOver) stream?.close();
      }
    };
    harness.startChaos();
    if (driver) {
      await driver.drive({
        client: env.client,
        workerConnection: env.workerConnection,
        scenario,
        binaries: kernelBinaries,
        taskQueues: Object.fromEntries(kernelBinaries.map((binary) => [binary, workers.taskQueue(binary)])),
        startedAt,
        schedule: scheduleOf(launches),
        timeoutMs: watchOptions.timeoutMs,
        checkContext,
        inPlay,
        signal,
        failed: harness.failed,
        started: () => tally.runsStarted++,
        ended: (run) => {
          tally.runsEnded++;
          return requestsAccepted(run);
        },
        judged: (run, record, stoppedBecause) => keep(run, { record, histories: () => wholeHistories(env.client, run) }, stoppedBecause),
      });
    } else await Promise.all(targetBinaries.map((binary) => drive(launches, (index) => runOne(binary, index))));
    await judging.drain();
    load = sampler.stop();
    if (harness.offload) load = { ...load, store: await harness.offload.store.usage() };
    verdicts = [
      ...(await harness.stopChaos()),
      // A run longrun's own stop ended is reported, not held against the chaos.
      ...(chaos
        ? evaluateChaosRuns(
            scenario.expect,
            tally.records.filter((record) => !stoppedByInterrupt(record.executions.at(-1)?.reason)),
            tally.stopped.filter((stopped) => !stoppedByInterrupt(stopped.why)),
          )
        : []),
      ...(scenario.soak ? soakVerdict(scenario.soak, load) : []),
    ];
    report();
    finished = !signal.aborted;
  } finally {
    // After a failure, the judgings in flight end before the replayers and the server go.
    await judging.drain().catch(() => {});
    await releaseReplayers();
    refusals.close();
    if (progressTimer) clearInterval(progressTimer);
    if (!finished) failure.abort();
    serverWatch?.stop();
    await harness.close(finished);
  }
  return summarize({
    scenario,
    scenarioFile: options.scenarioFile,
    runs: tally.records,
    verdicts,
    environment: env.description,
    limits,
    startedAt,
    finishedAt: new Date(),
    partial: signal.aborted && cutShort(tally.records, runsTotal),
    load,
    inputTokens: inputTokensOf(requestRecords()),
  });
}

/**
 * Whether a stop left the scenario unfinished: a run it stopped, or runs it never started or
 * judged. A signal that lands once every run has ended and been judged cuts nothing short.
 */
function cutShort(records: readonly RunRecord[], runsTotal: number | undefined): boolean {
  if (runsTotal === undefined || records.length < runsTotal) return true;
  return records.some((record) => stoppedByInterrupt(record.executions.at(-1)?.reason));
}

/** How a foreign target's runs start, for the line of a run that closes before its first model call. */
function startDeclaration(external: ExternalTarget, mapping: KernelMapping, scenarioFile: string | undefined): StartDeclaration {
  const file = scenarioFile ? relative(process.cwd(), resolve(scenarioFile)) : undefined;
  return {
    workflowType: external.workflowType,
    template: external.args,
    scenarioFile: file && !file.startsWith('..') ? file : scenarioFile,
    callModel: mapping.activities.callModel,
  };
}

/** Memory, CPU and throughput of the server (and its PostgreSQL) and the workers while the runs go on. */
function startSampler(scenario: Scenario, harness: RunHarness, tally: RunTally, ramp: Ramp | undefined): MetricsSampler {
  // The server run as one process per service is sampled service by service, not by its frontend alone.
  const { services } = harness.env;
  const serverPid = services ? undefined : serverPidFinder(harness.env);
  const sampler = new MetricsSampler({
    ...(serverPid ? { serverPid } : {}),
    ...(services ? { servicePids: servicePidsFinder(harness.env.address, SERVICES) } : {}),
    ...(harness.env.postgres ? { databasePid: () => harness.env.postgres?.postmasterPid } : {}),
    ...(harness.workerPid ? { workerPid: harness.workerPid } : {}),
    counters: () => tally.counters(),
    ...(ramp ? { ramp } : {}),
    ...(scenario.soak?.warmup !== undefined ? { warmupMs: durationMs(scenario.soak.warmup) } : {}),
  });
  sampler.start();
  return sampler;
}
