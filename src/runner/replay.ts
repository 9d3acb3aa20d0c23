/**
 * Cross-version replay: a run's histories replayed on workers of other binaries. The histories
 * of an older binary must replay on every newer one; a determinism error is a failure.
 */
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import type { InvariantResult } from '../checks/index.ts';
import type { BinaryId } from '../kernel/index.ts';
import { workflowBundle } from './workflow-bundles.ts';

export interface ReplayOutcome {
  binary: BinaryId;
  /** First error per execution, or none. */
  errors: string[];
}

export async function replayHistories(
  binary: BinaryId,
  workflowId: string,
  histories: readonly temporal.api.history.v1.IHistory[],
): Promise<ReplayOutcome> {
  const bundle = await workflowBundle(binary);
  const errors: string[] = [];
  const results = Worker.runReplayHistories(
    { workflowBundle: bundle },
    histories.map((history) => ({ workflowId, history })),
  );
  let execution = 0;
  for await (const result of results) {
    execution++;
    if (result.error) errors.push(`execution ${execution}: ${result.error.name}: ${result.error.message.split('\n')[0]}`);
  }
  return { binary, errors };
}

/** The binaries a run recorded on `recordedOn` must replay on, among those in play. */
export function replayTargets(recordedOn: BinaryId, inPlay: readonly BinaryId[]): BinaryId[] {
  if (recordedOn !== 'v0') return [recordedOn];
  return [...new Set<BinaryId>(['v0', ...inPlay])];
}

export function replayVerdict(outcomes: readonly ReplayOutcome[]): InvariantResult {
  const failed = outcomes.filter((o) => o.errors.length > 0);
  return {
    id: 'replay.cross-version',
    status: failed.length > 0 ? 'fail' : 'pass',
    evidence: outcomes.map((o) =>
      o.errors.length > 0 ? `replayed on ${o.binary}: ${o.errors.join('; ')}` : `replayed on ${o.binary}: identical`,
    ),
  };
}
