/** Facts about runs that every rendering shares, so the three renderings agree. */
import type { InvariantResult } from '../checks/index.ts';
import { endsConversation } from '../contract/conversation-end.ts';
import type { ExecutionRecord, RunRecord, TurnRecord } from '../result/index.ts';

/** Outcomes that mean the run itself went wrong, whatever the invariants say. */
const FAILED_OUTCOMES: ReadonlySet<ExecutionRecord['closedBy']> = new Set(['failed', 'terminated', 'timed-out']);

export function failedResults(run: RunRecord): InvariantResult[] {
  return run.invariants.filter((result) => result.status === 'fail');
}

/**
 * Whether the run itself went wrong by how it ended: failed, timed out, or terminated, but not
 * by longrun ending a chat agent's conversation after its last message (its normal end).
 */
export function endedBadly(run: RunRecord): boolean {
  return FAILED_OUTCOMES.has(run.outcome) && !(run.outcome === 'terminated' && endsConversation(run.executions.at(-1)?.reason));
}

/** A run fails when an invariant fails or the run ended badly (endedBadly). */
export function isFailingRun(run: RunRecord): boolean {
  return endedBadly(run) || run.invariants.some((result) => result.status === 'fail');
}

/** Failing runs first, each group in its original order. */
export function failingRunsFirst(runs: readonly RunRecord[]): RunRecord[] {
  return [...runs.filter(isFailingRun), ...runs.filter((run) => !isFailingRun(run))];
}

export function turnsInOrder(run: RunRecord): TurnRecord[] {
  return [...run.turns].sort((a, b) => a.turn - b.turn);
}

export function peakRequestBytes(run: RunRecord): number {
  return run.turns.reduce((peak, turn) => Math.max(peak, turn.requestBytes), 0);
}

export function largestHistoryBytes(run: RunRecord): number {
  return run.executions.reduce((peak, execution) => Math.max(peak, execution.historyBytes), 0);
}
