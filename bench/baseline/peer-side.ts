/**
 * The peer as a side of its own: the kernel's workflow bare on a scenario's plans, each run's
 * history then fetched and replayed by the SDK alone on a replay worker started for the side
 * (as longrun's runScenario starts its own), closed when the side ends.
 */
import type { RunPlan } from '../../mocks/index.ts';
import type { Environment } from '../../src/environment/index.ts';
import { runInputOf } from '../../src/runner/launch.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import { startPeerReplayer } from './peer-replay.ts';
import { type BaselineOptions, type BaselineResult, runBaseline } from './run-baseline.ts';

export type PeerSideOptions = Omit<BaselineOptions, 'kernelInput' | 'replayer' | 'maxTurns' | 'concurrency'>;

export async function runPeerSide(
  env: Environment,
  scenario: Scenario,
  plans: readonly RunPlan[],
  options: PeerSideOptions,
): Promise<BaselineResult> {
  const replayer = startPeerReplayer();
  try {
    return await runBaseline(env, plans, {
      ...options,
      concurrency: scenario.runs.concurrency,
      maxTurns: scenario.runs.maxTurns,
      kernelInput: (plan) => runInputOf(scenario, plan.runId, plan),
      replayer,
    });
  } finally {
    await replayer.close();
  }
}
