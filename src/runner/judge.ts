/**
 * Judging a run that has ended: every execution of its ContinueAsNew chain as read while it ran
 * (history-stream.ts) or fetched page by page (the checks read each page as it comes, history-chain.ts), replayed on the replayers of the
 * binaries that must replay it while the checks judge its run view, and its record built from
 * the same view, with what the mocks refused of its requests. Only the checks' reading and the replay copy are kept, never a history whole.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { buildRunView, type CheckContext, checkRunView, type InvariantResult, type KernelMapping } from '../checks/index.ts';
import type { RunRecord } from '../result/index.ts';
import type { ConversationOutcome } from './converse.ts';
import { conversationEndLine, earlyEndLine, type StartDeclaration } from './early-end.ts';
import { fetchRunForJudging, fetchRunHistories, type JudgingFetchOptions } from './history-chain.ts';
import type { RunHistoryStream } from './history-stream.ts';
import type { LaunchedRun } from './launch.ts';
import type { ReplayPlan } from './replay.ts';
import { replayRecords, replayVerdict } from './replay-verdict.ts';
import type { RequestRefusals } from './request-refusals.ts';
import type { RunHarness } from './run-harness.ts';
import { buildRunRecord } from './run-record.ts';
import { SERVER_DOWN_TOLERANCE_MS, whileServerDown } from './server-retry.ts';
import type { RunStores } from './stored-payloads.ts';

export interface JudgeContext {
  client: Client;
  checkContext: CheckContext;
  /** Where a run's histories replay: on the newer binaries in play. */
  replays: ReplayPlan;
  servedBy: RunHarness['servedBy'];
  /** How the target's histories are read (a foreign kernel's; the contract's by default). */
  mapping?: KernelMapping;
  /** The requests longrun's mocks refused, for `requests.accepted`: this process's recorder's, or gathered from mock replicas. */
  refusals: { verdict(...args: Parameters<RequestRefusals['verdict']>): InvariantResult | Promise<InvariantResult> };
  /** How a foreign target's runs are started: a run that closes before its first model call says so (early-end.ts). */
  start?: StartDeclaration;
  /** The scenario's External Storage, read by the judging where a history refers to it. */
  stores?: RunStores;
}

export interface JudgedRun {
  record: RunRecord;
  /** Fetches the run's histories again, whole (the judging kept only what it reads). */
  histories(): Promise<temporal.api.history.v1.IHistory[]>;
}

/** How the judging reads a run's histories: the checks' source names and mapping, and what the replay copy keeps. */
export function judgingFetchOptions(
  context: Pick<JudgeContext, 'mapping' | 'replays' | 'stores'>,
  workflowId: string,
): JudgingFetchOptions {
  // A run's stored payloads are held while it is judged, and go with it.
  const stored = context.stores?.readerFor(workflowId);
  return {
    loadOptions: (i: number) => ({
      source: `${workflowId} execution ${i + 1}`,
      ...(context.mapping ? { mapping: context.mapping } : {}),
      ...(stored ? { storedPayloads: stored.payloads } : {}),
    }),
    activityInputs: context.replays.readsActivityInputs,
    ...(stored ? { readStored: (events: readonly temporal.api.history.v1.IHistoryEvent[]) => stored.read(events) } : {}),
  };
}

/**
 * `stoppedBecause`: why longrun stopped the run, when it did (the watch's reason); `stream`: its
 * histories as read while it ran (history-stream.ts), fetched whole when it has none to give.
 */
export async function judgeRun(
  context: JudgeContext,
  run: LaunchedRun,
  stoppedBecause: string | undefined,
  stream?: RunHistoryStream,
  conversation?: ConversationOutcome,
): Promise<JudgedRun> {
  const { workflowId, binary } = run;
  const fetched =
    (await stream?.finish()) ??
    (await whileServerDown(
      () => fetchRunForJudging(context.client, workflowId, run.firstRunId, judgingFetchOptions(context, workflowId)),
      SERVER_DOWN_TOLERANCE_MS,
    ));
  const histories = fetched.map((f) => f.replayable);
  // A run that a newer binary took over is judged as that binary's, with the gate opening where it took over.
  const served = context.servedBy(binary, histories);
  const ranOn = served.at(-1) ?? binary;
  const tookOver = served.length > 1 || ranOn !== binary;
  // The replay runs on the replayers while this one checks the histories.
  const targets = tookOver ? [ranOn] : context.replays.targets(binary);
  // A replay that throws could not be done: the run's record says so, and the other runs are still judged.
  const replayed = Promise.all(
    targets.map((target) =>
      context.replays
        .replay(target, workflowId, histories)
        .catch((error: unknown) => ({ binary: target, errors: [], notReplayed: { why: errorLine(error), stderr: [] } })),
    ),
  );
  const view = buildRunView(fetched.map((f) => f.loaded));
  // What the run's references name, as the store holds it now (an object may be gone since it was read).
  const stored = context.stores?.readerFor(workflowId);
  await stored?.recheck();
  context.stores?.release(workflowId);
  const checkContext = stored ? { ...context.checkContext, storedPayloads: stored.payloads } : context.checkContext;
  const verdict = checkRunView(view, tookOver ? { ...checkContext, gateOpens: 'at-marker' } : checkContext);
  const outcomes = await replayed;
  const invariants = [...verdict.results, replayVerdict(outcomes), await context.refusals.verdict(run.runId, [binary, ...served])];
  const built = buildRunRecord({
    workflowId,
    binary: ranOn,
    startedAt: run.startedAt,
    finishedAt: new Date(),
    view,
    historyBytes: fetched.map((f) => f.bytes),
    temporalRunIds: fetched.map((f) => f.temporalRunId),
    invariants,
    replays: replayRecords(outcomes, (target) => context.replays.control(target)),
    ...(stoppedBecause ? { stoppedBecause } : {}),
  });
  // A conversation cut short says which message and why; else a run that never reached its model says what it was given.
  const earlyEnd = conversation?.problem
    ? conversationEndLine(run.runId, { ...conversation, problem: conversation.problem }, context.start?.workflowType)
    : context.start
      ? earlyEndLine(built, run.runId, run.args, context.start)
      : undefined;
  const record = earlyEnd ? { ...built, earlyEnd } : built;
  return { record, histories: () => wholeHistories(context.client, run) };
}

/** A run's histories fetched again from the server, whole (for saving a failing run's). */
export async function wholeHistories(
  client: Client,
  run: Pick<LaunchedRun, 'workflowId' | 'firstRunId'>,
): Promise<temporal.api.history.v1.IHistory[]> {
  const whole = await whileServerDown(() => fetchRunHistories(client, run.workflowId, run.firstRunId), SERVER_DOWN_TOLERANCE_MS);
  return whole.map((f) => f.history);
}

function errorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'failed';
}
