/**
 * The `replay.cross-version` result of a run, from its replays on each binary. A replay that could
 * not be done (a replayer that crashed, timed out or would not start) is no proof of
 * nondeterminism and no pass either: it fails the result with that reason, first among its
 * evidence only when no replay found a real nondeterminism.
 */
import type { InvariantResult } from '../checks/index.ts';
import type { BinaryName } from '../kernel/index.ts';
import type { ReplayRecord } from '../result/index.ts';

export interface ReplayOutcome {
  binary: BinaryName;
  /** First error per execution, or none. */
  errors: string[];
  /** Set when the replay could not be done: why, and the last lines its replayer wrote to stderr. */
  notReplayed?: { why: string; stderr: string[] };
}

/** How a replay that could not be done begins its evidence line. */
export const COULD_NOT_REPLAY = 'could not be replayed on';

/** Whether the result says the run could not be replayed, and nothing worse (no nondeterminism found). */
export function couldNotReplay(result: Pick<InvariantResult, 'id' | 'status' | 'evidence'>): boolean {
  return result.id === 'replay.cross-version' && result.status === 'fail' && (result.evidence[0] ?? '').startsWith(COULD_NOT_REPLAY);
}

export function replayVerdict(outcomes: readonly ReplayOutcome[]): InvariantResult {
  if (outcomes.length === 0) {
    return { id: 'replay.cross-version', status: 'not-applicable', evidence: ['no binary of this run has a replayer'] };
  }
  const nondeterministic = outcomes.filter((o) => o.errors.length > 0);
  const notReplayed = outcomes.filter((o) => o.notReplayed !== undefined);
  const identical = outcomes.filter((o) => o.errors.length === 0 && o.notReplayed === undefined);
  return {
    id: 'replay.cross-version',
    status: nondeterministic.length + notReplayed.length > 0 ? 'fail' : 'pass',
    evidence: [
      ...nondeterministic.map((o) => `replayed on ${o.binary}: ${o.errors.join('; ')}`),
      ...notReplayed.flatMap(({ binary, notReplayed: not }) => [
        `${COULD_NOT_REPLAY} ${binary}: ${not?.why}`,
        ...(not?.stderr ?? []).map((line) => `  stderr: ${line}`),
      ]),
      ...identical.map((o) => `replayed on ${o.binary}: identical`),
    ],
  };
}

/** What the run's record keeps of its replays: which binary replayed its histories, how, and whether it is a control. */
export function replayRecords(outcomes: readonly ReplayOutcome[], control: (binary: BinaryName) => boolean): ReplayRecord[] {
  return outcomes.map((o) => ({
    on: o.binary,
    result: o.notReplayed !== undefined ? 'not-replayed' : o.errors.length > 0 ? 'nondeterministic' : 'identical',
    control: control(o.binary),
  }));
}
