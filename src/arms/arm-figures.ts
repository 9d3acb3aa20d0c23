/**
 * What one arm cost and what broke it, from its summary: the figures of `longrun arms`' table.
 */
import type { RunRecord, Summary } from '../result/index.ts';

export interface Breakage {
  /** The incident the run shows, else its first failed invariant, else how it ended. */
  what: string;
  /** The turns the run had made when it broke (it ends there, or goes on wrong from there). */
  turn: number;
  runId: string;
}

export interface ArmFigures {
  binary: string;
  answer: string;
  /** The chaos it met, in words ("none" when calm). */
  chaos: string;
  runs: number;
  runsCompleted: number;
  /** Serialized history of every execution of a run, the mean over the runs and the largest. */
  historyBytesPerRun: { mean: number; max: number };
  eventsPerRun: { mean: number; max: number };
  /** What External Storage held at the end (0 where nothing was offloaded). */
  storedBytes: number;
  storedObjects: number;
  /** Input tokens the model API answered: the agent's requests and the compaction model's. */
  inputTokens: { agent: number; compaction: number };
  wallSeconds: number;
  turnLatencyP99Ms: number;
  /** The run that broke earliest (fewest turns), or null when every run held. */
  brokeFirst: Breakage | null;
  passed: boolean;
}

function meanAndMax(values: readonly number[]): { mean: number; max: number } {
  if (values.length === 0) return { mean: 0, max: 0 };
  return { mean: Math.round(values.reduce((a, b) => a + b, 0) / values.length), max: Math.max(...values) };
}

function breakageOf(run: RunRecord): Breakage | null {
  const failed = run.invariants.find((invariant) => invariant.status === 'fail');
  const what = run.incidents[0] ?? failed?.id ?? (run.outcome === 'completed' ? undefined : run.outcome);
  return what === undefined ? null : { what, turn: run.turns.length, runId: run.runId };
}

export function armFigures(summary: Summary, arm: { answer: string; binary: string; chaos: string }): ArmFigures {
  const breakages = summary.runs.flatMap((run) => breakageOf(run) ?? []);
  const store = summary.load?.store;
  return {
    ...arm,
    runs: summary.runs.length,
    runsCompleted: summary.runs.filter((run) => run.outcome === 'completed').length,
    historyBytesPerRun: meanAndMax(summary.runs.map((run) => run.executions.reduce((n, e) => n + e.historyBytes, 0))),
    eventsPerRun: meanAndMax(summary.runs.map((run) => run.executions.reduce((n, e) => n + e.events, 0))),
    storedBytes: store?.bytes ?? 0,
    storedObjects: store?.objects ?? 0,
    inputTokens: summary.totals.inputTokens ?? { agent: 0, compaction: 0 },
    wallSeconds: Math.round(summary.durationMs / 100) / 10,
    turnLatencyP99Ms: Math.round(summary.totals.latency.p99),
    brokeFirst: breakages.reduce<Breakage | null>((first, b) => (first === null || b.turn < first.turn ? b : first), null),
    passed: summary.passed,
  };
}
