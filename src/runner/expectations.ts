/**
 * A scenario's verdict: each expectation (invariants hold, an incident reproduces, a broken
 * control is caught, runs end as expected, histories replay where they must and fail where they
 * must) judged over the run records of the binary it names.
 * A replay that could not be done catches no broken control (unexplained-runs.ts lists its run).
 */
import type { BinaryName } from '../kernel/index.ts';
import type { ExpectationRecord, RunRecord } from '../result/index.ts';
import { type Expectation, incidentOf, type Reproduces } from '../scenario/scenario-schema.ts';
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
    if ('reproduces' in expectation) return { description: describe(expectation), ...judgeReproduces(expectation.reproduces, onBinary) };
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

type ReproducesAt = Exclude<Reproduces, string>;

/** `19 ± 1`, or `19` when it must be that turn. */
function turnWanted(reproduces: ReproducesAt): string {
  return `${reproduces.atTurn}${reproduces.within > 0 ? ` ± ${reproduces.within}` : ''}`;
}

/** `tmprl1103`, or `tmprl1103 at turn 19 ± 1`. */
function reproducesText(reproduces: Reproduces): string {
  return typeof reproduces === 'string' ? reproduces : `${reproduces.incident} at turn ${turnWanted(reproduces)}`;
}

/**
 * Some run shows the incident; with a turn, some run broke on it within the tolerance (the turn
 * its first limit broke it at, breakOf). Unmet, it says where the runs broke instead.
 */
function judgeReproduces(reproduces: Reproduces, runs: readonly RunRecord[]): Pick<ExpectationRecord, 'met' | 'detail'> {
  const incident = incidentOf(reproduces);
  const showing = runs.filter((r) => r.incidents.includes(incident));
  const shown = `${showing.length} of ${runs.length} runs show ${incident}`;
  if (typeof reproduces === 'string' || showing.length === 0) return { met: showing.length > 0, detail: shown };
  const turns = showing.map((r) => (r.broke?.incident === incident ? r.broke.turn : undefined));
  const within = turns.filter((t) => t !== undefined && Math.abs(t - reproduces.atTurn) <= reproduces.within);
  if (within.length > 0) return { met: true, detail: `${shown}, ${within.length} at turn ${within.join(', ')}` };
  const where = [...new Set(turns.map((t) => (t === undefined ? 'after another limit' : `at turn ${t}`)))].join(', ');
  return { met: false, detail: `${incident} ${where}, expected ${turnWanted(reproduces)}` };
}

function describe(expectation: Expectation): string {
  if ('hold' in expectation) {
    return `on ${expectation.on}: ${expectation.hold === 'all' ? 'every invariant holds' : `${expectation.hold.join(', ')} hold`}`;
  }
  if ('reproduces' in expectation) return `on ${expectation.on}: ${reproducesText(expectation.reproduces)} reproduces`;
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
