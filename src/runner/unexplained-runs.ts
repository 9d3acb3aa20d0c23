/**
 * The runs no expectation accounts for. An expectation judges some runs for some things (`hold`
 * their invariants, `ends` their outcome) or explains them (`reproduces`: the runs that show the
 * incident; `violates`: the broken control's runs its invariants caught). A run that went wrong
 * otherwise (it failed, was terminated, timed out or stopped, or violated an invariant) in a way
 * nothing on its binary judges or explains would be hidden behind a met expectation: it is
 * listed, with its first evidence line, and the summary does not pass.
 *
 * A run that could not be replayed (its replayer crashed) is always listed: no expectation can
 * account for a judgment that was not made. So is a run whose histories a binary failed to replay
 * where no expectation on its binary says they must fail (replay-expectations.ts): a release's
 * slip is never explained by a control's expected failure or an incident. So is a foreign
 * agent's run that closed before its first model call, completed or not: it was never driven.
 */
import type { InvariantId } from '../checks/index.ts';
import { endsConversation } from '../contract/conversation-end.ts';
import type { RunRecord, UnexplainedRun } from '../result/index.ts';
import { type Expectation, incidentOf } from '../scenario/scenario-schema.ts';
import { onlyStatedReplayFailures, replayCaughtControl, replayLine, replaySlips } from './replay-expectations.ts';
import { couldNotReplay } from './replay-verdict.ts';
import { INTERRUPTED } from './watch.ts';

/** Outcomes of a run that went its own way to its end. */
const ENDED_WELL: ReadonlySet<RunRecord['outcome']> = new Set(['completed', 'continued-as-new']);

/** The first line of a text, cut at 240 characters. */
function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 240);
}

/**
 * Whether the run failed the invariant for real (a replay that could not be done catches nothing).
 * `replay.cross-version` is failed so only on a broken control: a release's failure to replay is
 * a slip of its own, never the control caught.
 */
export function violated(run: RunRecord, id: InvariantId): boolean {
  if (id === 'replay.cross-version') {
    const caught = replayCaughtControl(run);
    if (caught !== undefined) return caught;
  }
  return run.invariants.some((i) => i.id === id && i.status === 'fail' && !couldNotReplay(i));
}

/** The runs that went wrong in a way no expectation on their binary judges or explains, in run order. */
export function unexplainedRuns(expectations: readonly Expectation[], runs: readonly RunRecord[]): UnexplainedRun[] {
  return runs.flatMap((run) => {
    const why = unexplainedReason(
      expectations.filter((e) => e.on === run.binary),
      run,
    );
    return why === undefined ? [] : [{ runId: run.runId, binary: run.binary, why }];
  });
}

function unexplainedReason(onBinary: readonly Expectation[], run: RunRecord): string | undefined {
  const notReplayed = run.invariants.find(couldNotReplay);
  if (notReplayed) return firstLine(notReplayed.evidence[0] ?? '');
  // A binary that failed to replay what it must is listed whatever explains the run; a `hold` of
  // replay.cross-version already fails on it.
  const slip = replaySlips(onBinary, run)[0];
  if (slip && !holds(onBinary).some((hold) => hold === 'all' || hold.includes('replay.cross-version'))) {
    return `replay.cross-version: ${replayLine(run, slip.on)}`;
  }
  // A foreign agent that closed before its first model call was never driven, however it ended:
  // an `ends: completed` it meets, or invariants that find nothing to judge, would hide it.
  if (run.earlyEnd) return run.earlyEnd.replace(/^run \S+: /, '');
  const lastReason = run.executions.at(-1)?.reason;
  // An interrupted run is the partial summary's to say (it cannot pass), not a run that went wrong.
  if (lastReason?.startsWith(INTERRUPTED)) return undefined;
  const explained = onBinary.some(
    (e) =>
      ('reproduces' in e && run.incidents.includes(incidentOf(e.reproduces))) ||
      ('violates' in e && e.violates.some((id) => violated(run, id))),
  );
  if (explained) return undefined;
  // A chat agent's run ends when longrun ends its conversation (run.liveness judges it idle then).
  const endedWell = ENDED_WELL.has(run.outcome) || (run.outcome === 'terminated' && endsConversation(lastReason));
  if (!endedWell && !onBinary.some((e) => 'ends' in e)) {
    return `ended ${run.outcome}${lastReason ? `: ${firstLine(lastReason)}` : ''}`;
  }
  const held = holds(onBinary);
  // A replay failure a `replay.failsOn` states is the scenario's, not the run's.
  const stated = (id: InvariantId) => id === 'replay.cross-version' && onlyStatedReplayFailures(onBinary, run);
  // A `hold` judges the invariants it names (its own verdict shows their failures); a `hold` that
  // names some leaves the others to the scenario's author; without a `hold`, none is judged.
  const judged = (id: InvariantId) => held.some((hold) => hold === 'all' || hold.includes(id));
  const leftAside = (id: InvariantId) => held.some((hold) => hold !== 'all' && !hold.includes(id));
  const unjudged = run.invariants.find((i) => i.status === 'fail' && !judged(i.id) && !leftAside(i.id) && !stated(i.id));
  return unjudged ? `${unjudged.id}: ${firstLine(unjudged.evidence[0] ?? 'failed')}` : undefined;
}

function holds(onBinary: readonly Expectation[]): ('all' | InvariantId[])[] {
  return onBinary.flatMap((e) => ('hold' in e ? [e.hold] : []));
}
