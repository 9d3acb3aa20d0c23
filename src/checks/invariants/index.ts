import type { HistoryInvariant } from '../verdict.ts';
import { canCarryOver } from './can-carry-over.ts';
import { canCleanBoundary } from './can-clean-boundary.ts';
import { compactionCard } from './compaction-card.ts';
import { compactionDigestCoverage } from './compaction-digest-coverage.ts';
import { compactionFailureContinues } from './compaction-failure-continues.ts';
import { compactionTrigger } from './compaction-trigger.ts';
import { elisionMinimal } from './elision-minimal.ts';
import { historyContinueAsNew } from './history-continue-as-new.ts';
import { historyNoTermination } from './history-no-termination.ts';
import { journalChain } from './journal-chain.ts';
import { payloadCeiling } from './payload-ceiling.ts';
import { payloadReferencesResolve } from './payload-references-resolve.ts';
import { rebuildContract } from './rebuild-contract.ts';
import { runLiveness } from './run-liveness.ts';
import { versioningPinnedBuild } from './versioning-pinned-build.ts';
import { wftNoRetryLoop } from './wft-no-retry-loop.ts';

/** The history invariants, in the order of the design's table. */
export const HISTORY_INVARIANTS: readonly HistoryInvariant[] = [
  payloadCeiling,
  payloadReferencesResolve,
  wftNoRetryLoop,
  historyNoTermination,
  historyContinueAsNew,
  canCleanBoundary,
  canCarryOver,
  compactionTrigger,
  compactionFailureContinues,
  compactionCard,
  compactionDigestCoverage,
  elisionMinimal,
  rebuildContract,
  journalChain,
  runLiveness,
  versioningPinnedBuild,
];

export { requiredIdentifiers, sectionProblem } from './compaction-card.ts';
