import type { CheckContext } from '../context.ts';
import { checkRun } from '../index.ts';
import type { InvariantResult } from '../verdict.ts';
import type { AgentRunHistory } from './agent-run-history.ts';

/** Runs every check over the run's histories and returns the result of one invariant. */
export function resultOf(run: AgentRunHistory, id: InvariantResult['id'], ctx: CheckContext = {}): InvariantResult {
  const result = checkRun(run.loaded(), ctx).results.find((r) => r.id === id);
  if (!result) throw new Error(`no result for ${id}`);
  return result;
}
