/**
 * A scenario's verdict: each expectation (invariants hold, an incident reproduces, a broken
 * control is caught, runs end as expected, histories replay where they must and fail where they
 * must) judged over the run records of the binary it names.
 * A replay that could not be done catches no broken control (unexplained-runs.ts lists its run).
 */
import type { BinaryName } from '../kernel/index.ts';
import type { ExpectationRecord, RunRecord } from '../result/index.ts';
import type { Expectation } from '../scenario/scenario-schema.ts';
import { judgeReplayExpectation, onlyStatedReplayFailures } from './replay-expectations.ts';
import { violated } from './unexplained-runs.ts';

export function evaluateExpectations(expectations: readonly Expectation[], runs: readonly RunRecord[]): ExpectationRecord[] {
  return expectations.map((expectation) => {
    const onBinary = runs.filter((r) => r.binary === expectation.on);
    if (onBinary.length === 0) {
      return { description: describe(expectation), met: false, detail: `no run finished on ${expectation.on}` };
    }
    if ('hold' in expectation) {
      const ids = expectation.hold === 'all' ? undefined : new Set<string>(expectation.hold);
      const sameBinary = expectations.filter((e) => e.on === expectation.on);
      // A replay failure that a `replay.failsOn` on the binary states is not one the `hold` counts.
      const stated = (r: RunRecord, id: string) => id === 'replay.cross-version' && onlyStatedReplayFailures(sameBinary, r);
      const failures = onBinary.flatMap((r) =>
        r.invariants.filter((i) => i.status === 'fail' && (!ids || ids.has(i.id)) && !stated(r, i.id)).map((i) => `${r.runId}: ${i.id}`),
      );
      return {
        description: describe(expectation),
        met: failures.length === 0,
        detail: failures.length === 0 ? `${onBinary.length} runs, no violation` : `violated: ${failures.slice(0, 10).join(', ')}`,
      };
    }
    if ('reproduces' in expectation) {
      const showing = onBinary.filter((r) => r.incidents.includes(expectation.reproduces));
      return {
        description: describe(expectation),
        met: showing.length > 0,
        detail: `${showing.length} of ${onBinary.length} runs show ${expectation.reproduces}`,
      };
    }
    if ('replay' in expectation) return { description: describe(expectation), ...judgeReplayExpectation(expectation, onBinary) };
    if ('ends' in expectation) {
      const otherwise = onBinary.filter((r) => r.outcome !== expectation.ends);
      return {
        description: describe(expectation),
        met: otherwise.length === 0,
        detail:
          otherwise.length === 0
            ? `${onBinary.length} runs ${expectation.ends}`
            : `ended otherwise: ${otherwise
                .slice(0, 10)
                .map((r) => `${r.runId} ${r.outcome}${lastReason(r) ? ` (${lastReason(r)})` : ''}`)
                .join(', ')}`,
      };
    }
    const missed = expectation.violates.filter((id) => !onBinary.some((r) => violated(r, id)));
    return {
      description: describe(expectation),
      met: missed.length === 0,
      detail: missed.length === 0 ? `caught by ${expectation.violates.join(', ')}` : `not caught by ${missed.join(', ')}`,
    };
  });
}

function describe(expectation: Expectation): string {
  if ('hold' in expectation) {
    return `on ${expectation.on}: ${expectation.hold === 'all' ? 'every invariant holds' : `${expectation.hold.join(', ')} hold`}`;
  }
  if ('reproduces' in expectation) return `on ${expectation.on}: ${expectation.reproduces} reproduces`;
  if ('ends' in expectation) return `on ${expectation.on}: every run ends ${expectation.ends}`;
  if ('replay' in expectation) {
    const { on, failsOn } = expectation.replay;
    const parts = [
      ...(on.length > 0 ? [`replay on ${on.join(', ')}`] : []),
      ...(failsOn.length > 0 ? [`fail on ${failsOn.join(', ')}`] : []),
    ];
    return `on ${expectation.on}: its histories ${parts.join(' and ')}`;
  }
  return `on ${expectation.on}: ${expectation.violates.join(', ')} catch it`;
}

/** The reason the run's last execution gave for its end: its first line, cut at 240 characters. */
function lastReason(run: RunRecord): string | undefined {
  const reason = run.executions.at(-1)?.reason;
  return reason === undefined ? undefined : reason.split('\n')[0]?.slice(0, 240);
}

export interface StoppedRun {
  runId: string;
  /** The binary the run is judged as (the one that ran it last). */
  binary: BinaryName;
  why: string;
}

/**
 * Under chaos, every run of a binary expected to hold must end by itself: a run that longrun had
 * to stop (a retry loop, its timeout) was lost to the chaos, whatever its histories say. And
 * every run must be judged: a run is judged as the binary that ran it last, which chaos decides
 * (an upgrade that came too late leaves a run to the old binary, which may have no expectation).
 */
export function evaluateChaosRuns(
  expectations: readonly Expectation[],
  runs: readonly RunRecord[],
  stopped: readonly StoppedRun[],
): ExpectationRecord[] {
  const named = new Set(expectations.map((e) => e.on));
  const unjudged = runs.filter((run) => !named.has(run.binary));
  const judged: ExpectationRecord = {
    description: 'chaos: every run is judged by an expectation on the binary that ran it last',
    met: unjudged.length === 0,
    detail:
      unjudged.length === 0
        ? `${runs.length} runs`
        : `no expectation on ${unjudged.map((run) => `${run.runId} (${run.binary})`).join(', ')}`,
  };
  const holding = [...new Set(expectations.flatMap((e) => ('hold' in e ? [e.on] : [])))];
  return [
    judged,
    ...holding.map((binary) => {
      const lost = stopped.filter((run) => run.binary === binary);
      return {
        description: `chaos: every run on ${binary} ended by itself`,
        met: lost.length === 0,
        detail: lost.length === 0 ? 'no run had to be stopped' : lost.map((run) => `${run.runId}: ${run.why}`).join('; '),
      };
    }),
  ];
}
