/**
 * A scenario's summary: its runs, every expectation judged over them (plus the verdicts chaos
 * and soak add), the totals and the limits they were judged against, and the runs no
 * expectation accounts for (unexplained-runs.ts). It passes only when it is whole, judged at
 * least one run, met every expectation and left no run unexplained.
 */
import type { MockRecord } from '../../mocks/index.ts';
import { stoppedByInterrupt } from '../contract/interrupted.ts';
import { BYTES_PER_TOKEN } from '../contract/limits.ts';
import type { ExpectationRecord, LoadMetrics, RunRecord, Summary } from '../result/index.ts';
import { totalsOf } from '../result/index.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { evaluateExpectations } from './expectations.ts';
import type { RunLimits } from './limits.ts';
import { unexplainedRuns } from './unexplained-runs.ts';

export interface SummaryInput {
  scenario: Scenario;
  scenarioFile?: string | undefined;
  runs: RunRecord[];
  /** Expectations judged elsewhere (chaos steps and runs, the soak's verdict), after the scenario's own. */
  verdicts: ExpectationRecord[];
  /** Where it ran (`Environment.description`). */
  environment: string;
  limits: RunLimits;
  startedAt: Date;
  finishedAt: Date;
  /** Interrupted before it finished. */
  partial: boolean;
  load?: LoadMetrics | undefined;
  /** The model requests the mocks answered (`inputTokensOf`). */
  inputTokens?: NonNullable<Summary['totals']['inputTokens']> | undefined;
}

export function summarize(input: SummaryInput): Summary {
  const { scenario, runs, partial, startedAt, finishedAt, load, scenarioFile } = input;
  // A run longrun's own stop cut short is reported, not judged: what the stop did is no violation.
  const judged = runs.filter((run) => !stoppedByInterrupt(run.executions.at(-1)?.reason));
  const expectations = [...evaluateExpectations(scenario.expect, judged), ...input.verdicts];
  const unexplained = unexplainedRuns(scenario.expect, runs);
  return {
    scenario: scenario.name,
    ...(scenarioFile ? { scenarioFile } : {}),
    seed: scenario.seed,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    partial,
    environment: input.environment,
    limits: input.limits,
    runs,
    expectations,
    ...(unexplained.length > 0 ? { unexplained } : {}),
    totals: { ...totalsOf(runs), ...(input.inputTokens ? { inputTokens: input.inputTokens } : {}) },
    ...(load ? { load } : {}),
    passed: !partial && runs.length > 0 && expectations.every((e) => e.met) && unexplained.length === 0,
  };
}

/** Input tokens of the model requests the mocks answered, the agent's and the compaction model's. */
export function inputTokensOf(records: readonly MockRecord[]): NonNullable<Summary['totals']['inputTokens']> {
  const bytes = { agent: 0, compaction: 0 };
  // What the provider billed where its usage says (provider-side compaction bills a summary for what it replaced).
  const billed = { agent: 0, compaction: 0 };
  for (const record of records) {
    if (record.status !== 200 || record.target === 'sandbox') continue;
    if (record.inputTokens === undefined) bytes[record.target] += record.requestBytes;
    else billed[record.target] += record.inputTokens;
  }
  return {
    agent: Math.round(bytes.agent / BYTES_PER_TOKEN) + billed.agent,
    compaction: Math.round(bytes.compaction / BYTES_PER_TOKEN) + billed.compaction,
  };
}
