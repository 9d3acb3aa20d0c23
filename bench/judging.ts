/**
 * Judging at the replayer's limit: the CPU this process spends to judge runs (`judgeRun`: the
 * history fetch, the checks' reading, the checks, the replay on longrun's replayers, the record)
 * against the SDK alone replaying the same histories, already in memory (bench/baseline/peer-replay.ts),
 * in one process, side by side, in an order that turns each repetition. Then the same judging
 * part by part, for where the rest goes. The runs are run once, by longrun, before any of it.
 */
import type { temporal } from '@temporalio/proto';
import { buildRunView, INVARIANTS, resolveContext } from '../src/checks/index.ts';
import type { Environment } from '../src/environment/index.ts';
import type { RunRecord } from '../src/result/index.ts';
import { fetchRunForJudging, fetchRunHistories } from '../src/runner/history-chain.ts';
import { type JudgeContext, judgeRun, judgingFetchOptions } from '../src/runner/judge.ts';
import type { LaunchedRun } from '../src/runner/launch.ts';
import { checkContextOf, resolveLimits } from '../src/runner/limits.ts';
import { holdReplayers, kernelReplayPlan, replayHistories } from '../src/runner/replay.ts';
import { replayCopy } from '../src/runner/replay-copy.ts';
import { runScenario } from '../src/runner/run-scenario.ts';
import { type PeerReplayer, startPeerReplayer } from './baseline/peer-replay.ts';
import { withBenchEnvironment } from './bench-environment.ts';
import { benchScenario } from './bench-scenario.ts';
import { checkGroup, type JudgingPartRow, type JudgingRepetition, judgingBreakdown, judgingRatio } from './judging-breakdown.ts';
import { sampleProcess } from './proc-stat.ts';
import type { OverheadRatio } from './stats.ts';

export interface JudgingOptions {
  runs: number;
  concurrency: number;
  targetTokens: number;
  repetitions: number;
}

export interface JudgingResult {
  options: JudgingOptions;
  turns: number;
  historyBytes: number;
  repetitions: JudgingRepetition[];
  /** Judging's CPU against the bare replay's, the median of the repetitions' ratios. */
  replayRatio: OverheadRatio;
  breakdown: JudgingPartRow[];
}

type History = temporal.api.history.v1.IHistory;

interface JudgedSubject {
  run: LaunchedRun;
  /** Every execution, whole, as the server gives it: what the bare replay replays. */
  histories: History[];
}

export async function measureJudging(options: JudgingOptions): Promise<JudgingResult> {
  const releaseReplayers = holdReplayers();
  const peer = startPeerReplayer();
  try {
    return await withBenchEnvironment(async ({ env, serverPid }) => {
      const scenario = benchScenario({
        name: 'bench-judging',
        seed: 4200,
        count: options.runs,
        concurrency: options.concurrency,
        targetTokens: options.targetTokens,
      });
      const summary = await runScenario(scenario, { environment: env });
      if (!summary.passed) throw new Error('judging: the runs did not pass their checks on longrun');
      const subjects = await Promise.all(summary.runs.map((record) => subjectOf(env, record)));
      const context: JudgeContext = {
        client: env.client,
        checkContext: checkContextOf(scenario, resolveLimits(scenario, env.dynamicConfig)),
        replays: kernelReplayPlan(['v1']),
        servedBy: (binary) => [binary],
        // The mocks' refusals are judged from their records, not the histories: none here.
        refusals: { verdict: () => ({ id: 'requests.accepted', status: 'pass', evidence: [] }) },
      };
      const judge = () => cpuOf(() => each(subjects, (s) => judgeRun(context, s.run, undefined)));
      const bare = () => cpuOf(() => each(subjects, (s) => replayBare(peer, s)));
      // Uncounted: JIT, the replayers' first workflows.
      await judge();
      await bare();
      const repetitions: JudgingRepetition[] = [];
      for (let repetition = 0; repetition < options.repetitions; repetition++) {
        const first = repetition % 2 === 0;
        const bareFirst = first ? undefined : await bare();
        const judged = await judge();
        const parts = await measureParts(context, subjects, serverPid);
        const bareReplay = bareFirst ?? (await bare());
        repetitions.push({
          judgingCpuMs: judged.cpuMs,
          bareReplayCpuMs: bareReplay.cpuMs,
          parts: parts.parts,
          serverFetchCpuMs: parts.serverFetchCpuMs,
        });
      }
      return {
        options,
        turns: summary.totals.turns,
        historyBytes: summary.runs.reduce((n, r) => n + r.executions.reduce((m, e) => m + e.historyBytes, 0), 0),
        repetitions,
        replayRatio: judgingRatio(repetitions),
        breakdown: judgingBreakdown(repetitions),
      };
    });
  } finally {
    await Promise.all([releaseReplayers(), peer.close()]);
  }
}

async function subjectOf(env: Environment, record: RunRecord): Promise<JudgedSubject> {
  const firstRunId = record.executions[0]?.temporalRunId ?? '';
  const run: LaunchedRun = {
    runId: record.runId,
    workflowId: record.workflowId,
    firstRunId,
    binary: record.binary,
    startedAt: new Date(record.startedAt),
    args: [],
  };
  const histories = (await fetchRunHistories(env.client, record.workflowId, firstRunId)).map((f) => f.history);
  return { run, histories };
}

async function replayBare(peer: PeerReplayer, subject: JudgedSubject): Promise<void> {
  for (const history of subject.histories) {
    const error = await peer.replay(subject.run.workflowId, history);
    if (error) throw new Error(`judging: ${subject.run.workflowId} did not replay on the bare SDK: ${error}`);
  }
}

/**
 * judgeRun's steps one by one, as it calls them, each timed alone: the fetch (the gRPC pages
 * decoded), the replay copy, the load (the checks' reading of each page: what the judging's
 * fetch costs beyond those two), the run view, each group of checks, the replay.
 */
async function measureParts(
  context: JudgeContext,
  subjects: readonly JudgedSubject[],
  serverPid: number | undefined,
): Promise<{ parts: Record<string, number>; serverFetchCpuMs: number }> {
  const parts: Record<string, number> = {};
  const add = (part: string, cpuMs: number) => {
    parts[part] = (parts[part] ?? 0) + cpuMs;
  };
  let serverFetchCpuMs = 0;
  const serverCpu = () => (serverPid !== undefined ? sampleProcess(serverPid).cpuMs : 0);
  for (const { run } of subjects) {
    const { workflowId, firstRunId } = run;
    const bareFetch = await cpuOf(() => fetchRunHistories(context.client, workflowId, firstRunId));
    add('fetch', bareFetch.cpuMs);
    const server0 = serverCpu();
    const fetched = await cpuOf(() => fetchRunForJudging(context.client, workflowId, firstRunId, judgingFetchOptions(context, workflowId)));
    serverFetchCpuMs += serverCpu() - server0;
    // The judging's fetch reads each page for the checks and keeps its replay copy: beyond the bare fetch and the copy, the load.
    const copy = await cpuOf(async () => bareFetch.value.map((f) => replayCopy(f.history.events ?? [], { activityInputs: false })));
    add('replay copy', copy.cpuMs);
    add('load', fetched.cpuMs - bareFetch.cpuMs - copy.cpuMs);
    const view = await cpuOf(async () => buildRunView(fetched.value.map((f) => f.loaded)));
    add('view', view.cpuMs);
    const resolved = resolveContext(context.checkContext, view.value.mapping, view.value.input.limits);
    for (const [id, entry] of Object.entries(INVARIANTS)) {
      if (entry.kind !== 'history') continue;
      add(`checks ${checkGroup(id)}`, (await cpuOf(async () => entry.check(view.value, resolved))).cpuMs);
    }
    const replay = await cpuOf(() =>
      replayHistories(
        'v1',
        workflowId,
        fetched.value.map((f) => f.replayable),
      ),
    );
    if (replay.value.errors.length > 0) throw new Error(`judging: ${workflowId} did not replay: ${replay.value.errors[0]}`);
    add('replay', replay.cpuMs);
  }
  return { parts, serverFetchCpuMs };
}

async function each<T>(items: readonly T[], work: (item: T) => Promise<unknown>): Promise<void> {
  for (const item of items) await work(item);
}

/** CPU of this process, every thread (the replayers' included), over `work`. */
async function cpuOf<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const cpu0 = process.cpuUsage();
  const value = await work();
  const cpu = process.cpuUsage(cpu0);
  return { value, cpuMs: (cpu.user + cpu.system) / 1000 };
}
