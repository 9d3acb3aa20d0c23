/**
 * Workflow code (bundled, deterministic): one run's judging, as an activity with retries and
 * heartbeats, so that a harness worker killed mid-judging loses nothing: another one takes the
 * activity up once its heartbeat stops. It imports the workflow SDK and nothing else.
 */
import { proxyActivities } from '@temporalio/workflow';

/** The activities this workflow calls; their input and output are src/distributed/judging-activity.ts's. */
export interface JudgingActivities {
  judgeClosedRun(request: unknown): Promise<unknown>;
}

/** How long a judging may go without a heartbeat before another harness worker takes it up. */
export const JUDGING_HEARTBEAT_TIMEOUT_MS = 10_000;

const { judgeClosedRun } = proxyActivities<JudgingActivities>({
  // A max-size run's judging takes minutes on a loaded machine; the heartbeat, not this, finds a dead worker.
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: JUDGING_HEARTBEAT_TIMEOUT_MS,
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
});

/** A run judged: its record, as the activity returned it. */
export async function judgeRunWorkflow(request: unknown): Promise<unknown> {
  return await judgeClosedRun(request);
}
