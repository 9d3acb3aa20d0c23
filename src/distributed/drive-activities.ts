/**
 * The drive's activities on a harness task queue (drive-workflow.ts): a run started as the
 * `run` process would start it (its id and input the same, a retried start finding the run it
 * started), and a run watched until it closes, stopped as `watchRun` stops it, heartbeating so
 * that another harness worker takes a dead one's watch over.
 */
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { BinaryName } from '../kernel/index.ts';
import { launchRun, plannedLaunchContext } from '../runner/launch.ts';
import { watchRun } from '../runner/watch.ts';
import type { StartInput, WireRun } from './drive-workflow.ts';

/** Heartbeats well inside the drive's heartbeat timeout. */
const HEARTBEAT_EVERY_MS = 1_000;

/** The drive's activities, reading and starting the runs through `clientOf(namespace)`. */
export function driveActivities(clientOf: (namespace: string) => Client) {
  return {
    async startDrivenRun(input: StartInput): Promise<WireRun> {
      const scenario = input.scenario as unknown as Parameters<typeof plannedLaunchContext>[1];
      const context = plannedLaunchContext(clientOf(input.namespace), scenario, input.taskQueues, new Date(input.startedAtMs));
      const run = await launchRun(context, input.binary as BinaryName, input.index);
      return {
        runId: run.runId,
        workflowId: run.workflowId,
        firstRunId: run.firstRunId,
        binary: run.binary,
        startedAt: run.startedAt.toISOString(),
      };
    },
    async watchDrivenRun(input: { namespace: string; run: WireRun; timeoutMs: number }): Promise<string | null> {
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      try {
        const stoppedBecause = await watchRun(clientOf(input.namespace), input.run.workflowId, {
          timeoutMs: input.timeoutMs,
          since: new Date(input.run.startedAt),
          // Cancelled with the drive: the run is stopped as an interrupt stops it.
          signal: context.cancellationSignal,
          // The kernel's workers are the `run` process's: it cancels the drive when they die.
          workerFailed: new Promise<never>(() => {}),
        });
        return stoppedBecause ?? null;
      } finally {
        clearInterval(beat);
      }
    },
  };
}
