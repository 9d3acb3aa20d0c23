/**
 * The judging section's arithmetic: where the CPU of judging a run goes, part by part, against
 * the SDK's bare replay of the same histories. Pure, so the tests check it without timing anything.
 */
import { median, type OverheadRatio, overheadRatio } from './stats.ts';

/** Issue 42's target: judging a run at most 15% over the SDK's bare replay of its histories. */
export const JUDGING_REPLAY_TARGET = 1.15;

/** One repetition over every run: CPU ms of this process (all threads), by what was measured. */
export interface JudgingRepetition {
  /** `judgeRun` whole: fetch, load, checks, replay, the record. */
  judgingCpuMs: number;
  /** The SDK alone replaying the same histories, already in memory. */
  bareReplayCpuMs: number;
  /** The parts, measured one by one: `fetch`, `load`, `view`, `checks <group>`, `replay`. */
  parts: Record<string, number>;
  /** The server's CPU serving the judging's fetch (not this process's: beside the ratio, not in it). */
  serverFetchCpuMs: number;
}

export interface JudgingPartRow {
  part: string;
  /** Median over the repetitions, ms. */
  cpuMs: number;
  /** Of the bare replay's median. */
  ofBareReplay: number;
}

/** The check group of an invariant id: what comes before its first dot (`compaction.card` is `compaction`). */
export function checkGroup(invariantId: string): string {
  return invariantId.split('.')[0] ?? invariantId;
}

/** Judging against the bare replay: the median of the repetitions' ratios. */
export function judgingRatio(repetitions: readonly JudgingRepetition[]): OverheadRatio {
  return overheadRatio(
    repetitions.map((r) => ({ longrun: r.judgingCpuMs, baseline: r.bareReplayCpuMs })),
    JUDGING_REPLAY_TARGET,
  );
}

/**
 * Each part's median, in the order first seen, then what the parts leave of the judging's
 * median (`rest`: the record, the verdicts, the parts' overlap in time measured apart), each
 * against the bare replay's median.
 */
export function judgingBreakdown(repetitions: readonly JudgingRepetition[]): JudgingPartRow[] {
  if (repetitions.length === 0) throw new Error('judgingBreakdown: needs at least one repetition');
  const bare = median(repetitions.map((r) => r.bareReplayCpuMs));
  const names = [...new Set(repetitions.flatMap((r) => Object.keys(r.parts)))];
  const rows = names.map((part) => {
    const cpuMs = median(repetitions.map((r) => r.parts[part] ?? 0));
    return { part, cpuMs, ofBareReplay: cpuMs / bare };
  });
  const judging = median(repetitions.map((r) => r.judgingCpuMs));
  const rest = judging - rows.reduce((n, row) => n + row.cpuMs, 0);
  return [...rows, { part: 'rest', cpuMs: rest, ofBareReplay: rest / bare }];
}
