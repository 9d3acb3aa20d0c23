/**
 * The timing between a recorded run's turns, as the mocks can replay it: each turn's model answer
 * held back by the time the source took from that turn's model call (its last attempt's start,
 * so that a retry's backoff, which the replay spends again, is not counted twice) to the next
 * turn's, times a scale. The replay's own work comes on top: milliseconds a turn.
 */
import type { FaultRule } from '../../mocks/index.ts';
import type { RunView } from '../checks/index.ts';

/** The default --time-scale brings the source's gaps to this in all, at most (1 when they are under it already). */
export const PACING_BUDGET_MS = 10_000;
/** A gap is never held longer than this: under the kernel's HTTP timeout for the model (100 s), so pacing never times a call out. */
const MAX_DELAY_MS = 60_000;

/** By turn number: ms from its model call to the next turn's (the last turn has none). */
export function turnGaps(run: RunView): Map<number, number> {
  const turns = run.executions.flatMap((execution) => execution.turns);
  const gaps = new Map<number, number>();
  turns.forEach((turn, i) => {
    const next = turns[i + 1]?.calls[0]?.scheduled.time;
    const call = turn.calls.at(-1);
    if (!call || next === undefined) return;
    const started = call.execution.history.events.find(
      (e) => e.attrs.kind === 'activity-started' && e.attrs.scheduledEventId === call.scheduled.id,
    );
    const from = Date.parse(started?.time ?? call.scheduled.time ?? '');
    const gap = Date.parse(next) - from;
    if (Number.isFinite(gap) && gap > 0) gaps.set(turn.number ?? i + 1, gap);
  });
  return gaps;
}

export function defaultTimeScale(gaps: ReadonlyMap<number, number>): number {
  const total = [...gaps.values()].reduce((a, b) => a + b, 0);
  return total > PACING_BUDGET_MS ? PACING_BUDGET_MS / total : 1;
}

/** Two significant digits (the turns of a delay share one rule), never above MAX_DELAY_MS. */
function delayOf(ms: number): number {
  return Math.min(MAX_DELAY_MS, ms >= 10 ? Number(ms.toPrecision(2)) : Math.round(ms));
}

/** The agent model's latency rules: one per delay, naming its turns. */
export function pacingRules(gaps: ReadonlyMap<number, number>, timeScale: number): { rules: FaultRule[]; totalMs: number } {
  const byDelay = new Map<number, number[]>();
  for (const [turn, gap] of gaps) {
    const ms = delayOf(gap * timeScale);
    if (ms > 0) byDelay.set(ms, [...(byDelay.get(ms) ?? []), turn]);
  }
  const rules = [...byDelay]
    .sort(([, a], [, b]) => (a[0] as number) - (b[0] as number))
    .map(([ms, turns]): FaultRule => ({ fault: { kind: 'latency', ms }, when: { turns } }));
  const totalMs = [...byDelay].reduce((sum, [ms, turns]) => sum + ms * turns.length, 0);
  return { rules, totalMs };
}
