/** Facts about runs that every rendering shares, so the three renderings agree. */
import type { InvariantResult } from '../checks/index.ts';
import type { ExecutionRecord, RunRecord, TurnRecord } from '../result/index.ts';

/** Outcomes that mean the run itself went wrong, whatever the invariants say. */
const FAILED_OUTCOMES: ReadonlySet<ExecutionRecord['closedBy']> = new Set(['failed', 'terminated', 'timed-out']);

export function failedResults(run: RunRecord): InvariantResult[] {
  return run.invariants.filter((result) => result.status === 'fail');
}

/** A run fails when an invariant fails or the run ended failed, terminated or timed out. */
export function isFailingRun(run: RunRecord): boolean {
  return FAILED_OUTCOMES.has(run.outcome) || run.invariants.some((result) => result.status === 'fail');
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
