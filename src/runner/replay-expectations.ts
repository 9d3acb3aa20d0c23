/**
 * Replay, binary by binary: which binaries must replay a binary's runs and which must fail to, read
 * from each run's replay records. A failure is expected only where an expectation on the run's
 * binary names it: a `replay.failsOn` naming that binary, or a `violates: [replay.cross-version]`
 * when the binary is a broken control. Any other failure (a release that cannot replay what it is
 * given) is a slip, which no expectation absorbs: not a control's expected failure, not an
 * incident that `reproduces` explains.
 */
import type { BinaryName } from '../kernel/index.ts';
import type { ReplayRecord, RunRecord } from '../result/index.ts';
import type { Expectation, ReplayExpectation } from '../scenario/scenario-schema.ts';
import { COULD_NOT_REPLAY } from './replay-verdict.ts';

/** The binaries a `replay.failsOn` on the run's binary names. */
function failsOnNames(onBinary: readonly Expectation[]): Set<BinaryName> {
  return new Set(onBinary.flatMap((e) => ('replay' in e ? e.replay.failsOn : [])));
}

/** Whether the expectations on the run's binary expect its histories to fail on this replay's binary. */
function expectedToFail(onBinary: readonly Expectation[], replay: ReplayRecord): boolean {
  if (failsOnNames(onBinary).has(replay.on)) return true;
  return replay.control && onBinary.some((e) => 'violates' in e && e.violates.includes('replay.cross-version'));
}

/** The run's replays that found a nondeterminism where no expectation on its binary expects one. */
export function replaySlips(onBinary: readonly Expectation[], run: RunRecord): ReplayRecord[] {
  return (run.replays ?? []).filter((replay) => replay.result === 'nondeterministic' && !expectedToFail(onBinary, replay));
}

/**
 * Whether the run's replay caught a broken control: a nondeterminism on a control. A run recorded
 * before replays were (no `replays`) is read from its `replay.cross-version` result, as then.
 */
export function replayCaughtControl(run: RunRecord): boolean | undefined {
  if (!run.replays) return undefined;
  return run.replays.some((replay) => replay.result === 'nondeterministic' && replay.control);
}

/**
 * Whether every failed replay of the run is one a `replay.failsOn` on its binary names: its
 * `replay.cross-version` failure is then what the scenario states, and a `hold` does not count it.
 */
export function onlyStatedReplayFailures(onBinary: readonly Expectation[], run: RunRecord): boolean {
  if (!run.replays) return false;
  const failsOn = failsOnNames(onBinary);
  return run.replays.every((replay) => replay.result === 'identical' || (replay.result === 'nondeterministic' && failsOn.has(replay.on)));
}

/** What the run's replay on the binary said: its evidence line, else how it went. */
export function replayLine(run: RunRecord, on: BinaryName): string {
  const evidence = run.invariants.find((i) => i.id === 'replay.cross-version')?.evidence ?? [];
  const line = evidence.find((l) => l.startsWith(`replayed on ${on}: `) || l.startsWith(`${COULD_NOT_REPLAY} ${on}: `));
  const said = line ?? run.replays?.find((r) => r.on === on)?.result ?? `not replayed on ${on}`;
  return (said.split('\n')[0] ?? '').slice(0, 240);
}

/**
 * A replay expectation over the runs of its binary: on each binary of `on`, every run replayed,
 * identically; on each of `failsOn`, at least one run shows a nondeterminism.
 */
export function judgeReplayExpectation(expectation: ReplayExpectation, runs: readonly RunRecord[]): { met: boolean; detail: string } {
  const resultOn = (run: RunRecord, on: BinaryName) => run.replays?.find((r) => r.on === on)?.result;
  const problems: string[] = [];
  const found: string[] = [];
  for (const on of expectation.replay.on) {
    const otherwise = runs.filter((run) => resultOn(run, on) !== 'identical');
    if (otherwise.length === 0) found.push(`${runs.length} of ${runs.length} replay on ${on}`);
    else
      problems.push(
        `not replayed identically on ${on}: ${otherwise
          .slice(0, 5)
          .map((run) => `${run.runId}: ${replayLine(run, on)}`)
          .join('; ')}`,
      );
  }
  for (const on of expectation.replay.failsOn) {
    const failing = runs.filter((run) => resultOn(run, on) === 'nondeterministic');
    if (failing.length > 0) found.push(`${failing.length} of ${runs.length} fail on ${on}`);
    else problems.push(`no run fails to replay on ${on} (${describeResults(runs, on)})`);
  }
  return { met: problems.length === 0, detail: problems.length === 0 ? found.join(', ') : problems.join('; ') };
}

/** How the runs' replays on the binary went, counted: "2 identical", "1 not replayed on it". */
function describeResults(runs: readonly RunRecord[], on: BinaryName): string {
  const counts = new Map<string, number>();
  for (const run of runs) {
    const result = run.replays?.find((r) => r.on === on)?.result ?? 'not replayed on it';
    counts.set(result, (counts.get(result) ?? 0) + 1);
  }
  return [...counts].map(([result, n]) => `${n} ${result}`).join(', ');
}
