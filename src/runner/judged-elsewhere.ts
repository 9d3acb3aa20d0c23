/**
 * The seam where a scenario's judging is chosen: in this process (judge.ts), or elsewhere, each
 * run handed over once it has ended and its record given back (src/distributed/ puts it on a
 * Temporal task queue). Judged elsewhere, a run is read from the server alone, so only the
 * scenarios whose judging needs nothing but the histories and this request go there.
 */
import type { Client } from '@temporalio/client';
import type { CheckContext, InvariantResult } from '../checks/index.ts';
import { BINARIES, type BinaryId } from '../kernel/index.ts';
import type { RunRecord } from '../result/index.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import type { LaunchedRun } from './launch.ts';

export interface JudgingRequest {
  /** The cluster the run ran on. */
  client: Client;
  scenario: Pick<Scenario, 'name' | 'seed'>;
  run: LaunchedRun;
  /** Why longrun stopped the run, when it did. */
  stoppedBecause?: string;
  checkContext: CheckContext;
  /** The binaries in play: a run replays on its own and the later ones among them. */
  inPlay: BinaryId[];
  /** `requests.accepted`, from the mocks' recorder of this process. */
  requestsAccepted: InvariantResult;
}

/** Judges one run elsewhere and gives its record back. */
export type RunJudge = (request: JudgingRequest) => Promise<RunRecord>;

/** Why the scenario cannot be judged elsewhere, or undefined when it can; `workersApart`: chaos strikes or the caller asked. */
export function judgedElsewhereRefusal(scenario: Scenario, workersApart: boolean): string | undefined {
  const why =
    'external' in scenario.target
      ? 'has a foreign target (its replayers and mapping file are read where it runs)'
      : workersApart
        ? 'runs its workers apart (a run served by several builds is told apart by their identities)'
        : scenario.target.binaries.some((binary) => BINARIES[binary].offload)
          ? 'has a binary that offloads (its histories are read with its External Storage)'
          : undefined;
  return why && `scenario ${scenario.name} cannot be judged on a task queue: it ${why}`;
}
