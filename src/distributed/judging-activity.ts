/**
 * The judging activity: a run that has ended, read from the cluster, replayed on the binaries it
 * must replay on, checked, and its record returned, exactly as the one-process judging does it
 * (src/runner/judge.ts); it heartbeats while it works, so that a dead harness worker's judging
 * is taken up by another.
 */
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { CheckContext, InvariantResult } from '../checks/index.ts';
import type { BinaryId } from '../kernel/index.ts';
import type { RunRecord } from '../result/index.ts';
import { judgeRun } from '../runner/judge.ts';
import type { JudgingRequest } from '../runner/judged-elsewhere.ts';
import { kernelReplayPlan } from '../runner/replay.ts';

/** What the judging workflow carries: a `JudgingRequest` without its client, as JSON. */
export interface JudgingInput {
  /** The runs' namespace, where their histories are read (the harness's may be another). */
  namespace: string;
  scenario: { name: string; seed: number };
  run: { runId: string; workflowId: string; firstRunId: string; binary: BinaryId; startedAt: string };
  stoppedBecause?: string;
  checkContext: CheckContext;
  inPlay: BinaryId[];
  requestsAccepted: InvariantResult;
}

/** Heartbeats well inside the workflow's heartbeat timeout. */
const HEARTBEAT_EVERY_MS = 1_000;

export function judgingInputOf(request: JudgingRequest): JudgingInput {
  const { run } = request;
  return {
    namespace: request.client.options.namespace,
    scenario: { name: request.scenario.name, seed: request.scenario.seed },
    run: {
      runId: run.runId,
      workflowId: run.workflowId,
      firstRunId: run.firstRunId,
      binary: run.binary as BinaryId,
      startedAt: run.startedAt.toISOString(),
    },
    ...(request.stoppedBecause ? { stoppedBecause: request.stoppedBecause } : {}),
    checkContext: request.checkContext,
    inPlay: request.inPlay,
    requestsAccepted: request.requestsAccepted,
  };
}

/** The activities of a harness worker that reads the runs' cluster through `clientOf(namespace)`. */
export function judgingActivities(clientOf: (namespace: string) => Client) {
  return {
    async judgeClosedRun(request: unknown): Promise<RunRecord> {
      const input = request as JudgingInput;
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      try {
        const judgeContext = {
          client: clientOf(input.namespace),
          checkContext: input.checkContext,
          replays: kernelReplayPlan(input.inPlay),
          servedBy: (binary: string) => [binary],
          refusals: { verdict: () => input.requestsAccepted },
        };
        // The arguments a run started with matter to a foreign target's early end only, never judged here.
        const run = { ...input.run, startedAt: new Date(input.run.startedAt), args: [] };
        const { record } = await judgeRun(judgeContext, run, input.stoppedBecause);
        return record;
      } finally {
        clearInterval(beat);
      }
    },
  };
}
