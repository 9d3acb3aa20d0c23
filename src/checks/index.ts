/**
 * The invariants of longrun as pure functions over Temporal workflow histories. They read
 * histories through the kernel contract (src/contract) or a KernelMapping, never the kernel:
 *   const verdict = checkRun([await loadHistoryFile('execution-1.json')]);
 * Definitions (request bytes, the boundary, identifiers...) are in README.md beside this file.
 */
import { type CheckContext, resolveContext } from './context.ts';
import { type HistoryInput, loadHistory } from './history/load.ts';
import type { LoadedHistory } from './history/model.ts';
import { uninterpretedNotes } from './history/uninterpreted.ts';
import { HISTORY_INVARIANTS } from './invariants/index.ts';
import { unreadReferences } from './run/offloads.ts';
import { buildRunView, type RunView } from './run/run-view.ts';
import type { HistoryInvariant, InvariantId, InvariantResult, RunVerdict } from './verdict.ts';
import { verdictStatus } from './verdict.ts';

export { extractIdentifiers } from '../contract/identifiers.ts';
export { HISTORY_COUNT_LIMIT } from '../contract/limits.ts';
export type { CheckContext, ResolvedContext } from './context.ts';
export { resolveContext } from './context.ts';
export * from './history/index.ts';
export { INCIDENTS, type Incident, incidentsOf, isPayloadTooLarge } from './incidents.ts';
export { requiredIdentifiers, sectionProblem } from './invariants/index.ts';
export { DEFAULT_KERNEL_MAPPING, type GateMarker, type KernelMapping, type PayloadPath } from './mapping.ts';
export { parseKernelMapping, readKernelMappingFile } from './mapping-file.ts';
export { holdsConversation, modelLikeActivities } from './model-like-activities.ts';
export { groupRuns } from './run/group-runs.ts';
export {
  type Activity,
  buildRunView,
  type Execution,
  type GateMode,
  type JournaledEvent,
  type Mechanism,
  type RunView,
  type Turn,
} from './run/run-view.ts';
export { SERVER_LIMITS, type ServerLimits } from './server-limits.ts';
export * from './verdict.ts';

export type InvariantEntry =
  | { kind: 'history'; description: string; appliesTo: HistoryInvariant['appliesTo']; check: HistoryInvariant['check'] }
  /** Judged by replaying histories on workers (the replay harness), not by a history check. */
  | { kind: 'replay'; description: string }
  /** Judged from the requests longrun's mocks refused, not by a history check. */
  | { kind: 'mocks'; description: string };

export const INVARIANTS: Readonly<Record<InvariantId, InvariantEntry>> = {
  ...Object.fromEntries(
    HISTORY_INVARIANTS.map((invariant) => [
      invariant.id,
      {
        kind: 'history',
        description: invariant.description,
        appliesTo: invariant.appliesTo,
        check: invariant.check.bind(invariant),
      },
    ]),
  ),
  'replay.cross-version': {
    kind: 'replay',
    description: 'histories of every older binary replay on the newer one; the broken control does not',
  },
  'requests.accepted': {
    kind: 'mocks',
    description:
      "every request the run sent to longrun's mocks (model and sandbox) is one a real API takes: no 400 or 404 but the faults the scenario injects",
  },
} as Record<InvariantId, InvariantEntry>;

/** Whether the run called the model activity the mapping names: an agent, whatever its input. */
function hasModelCalls(run: RunView): boolean {
  return run.executions.some((execution) => execution.turns.length > 0);
}

function isLoaded(history: LoadedHistory | HistoryInput): history is LoadedHistory {
  return typeof history === 'object' && history !== null && 'mapping' in history && 'source' in history;
}

/**
 * Judges one run (its executions, in any order: they are ordered by their ContinueAsNew links)
 * against every history invariant. Raw inputs are loaded with `ctx.mapping`.
 */
export function checkRun(histories: readonly (LoadedHistory | HistoryInput)[], ctx: CheckContext = {}): RunVerdict {
  const loaded = histories.map((history, index) =>
    isLoaded(history)
      ? history
      : loadHistory(history, { source: `history #${index + 1}`, mapping: ctx.mapping, storedPayloads: ctx.storedPayloads }),
  );
  return checkRunView(buildRunView(loaded), ctx);
}

/**
 * Why the payloads the checks read are not all there: references to External Storage that were
 * not resolved (no stored payloads given, an object missing, a reference unreadable), with the
 * first few places; undefined when every payload the checks read was in the history or resolved.
 */
function unreadOffloads(run: RunView, ctx: CheckContext): string | undefined {
  const unread = unreadReferences(run).map(({ execution, reference }) => ({ execution, r: reference }));
  if (unread.length === 0) return undefined;
  const count = (resolution: string) => unread.filter(({ r }) => r.resolution === resolution).length;
  const noStore = ctx.storedPayloads ? 'loaded without the stored payloads given (LoadOptions.storedPayloads)' : 'no stored payloads given';
  const why = [
    count('no-store') > 0 ? `${count('no-store')} with ${noStore}` : '',
    count('missing') > 0 ? `${count('missing')} whose stored payload is missing (payload.references-resolve names them)` : '',
    count('unreadable') > 0 ? `${count('unreadable')} whose reference cannot be read` : '',
  ].filter((part) => part !== '');
  const shown = unread.slice(0, 4).map(({ execution, r }) => `${run.at(execution, r.eventId)} ${r.place}`);
  const more = unread.length > shown.length ? `, and ${unread.length - shown.length} more` : '';
  return `not judged: ${unread.length} payloads it reads are offloaded to External Storage and not read (${why.join('; ')}): ${shown.join(', ')}${more}`;
}

/** Judges a run already read into its view (the runner reads each run once, for the checks and its record). */
export function checkRunView(run: RunView, ctx: CheckContext = {}): RunVerdict {
  const resolved = resolveContext(ctx, run.mapping, run.input.limits);
  const { mechanism } = run;
  const offloaded = unreadOffloads(run, ctx);
  const results: InvariantResult[] = HISTORY_INVARIANTS.map((invariant) => {
    if (invariant.appliesTo === 'kernel' && !mechanism.found) {
      return { id: invariant.id, status: 'not-applicable', evidence: [`not the kernel's mechanism: ${mechanism.reason}`] };
    }
    if (invariant.appliesTo === 'agent' && !mechanism.found && !hasModelCalls(run)) {
      const looked = `no ${run.mapping.activities.callModel} activity`;
      return {
        id: invariant.id,
        status: 'not-applicable',
        evidence: [`not an agent the mapping reads: ${mechanism.reason}, and ${looked}`],
      };
    }
    if (offloaded && invariant.readsPayloads !== false) return { id: invariant.id, status: 'not-applicable', evidence: [offloaded] };
    try {
      return invariant.check(run, resolved);
    } catch (error) {
      return { id: invariant.id, status: 'fail', evidence: [`internal error in the check: ${(error as Error).message}`] };
    }
  });
  const notes = uninterpretedNotes(run.executions.map((e) => e.history));
  return {
    runId: run.input.runId,
    ...(mechanism.found ? {} : { foreign: { workflowType: mechanism.workflowType, reason: mechanism.reason } }),
    sources: run.executions.map((e) => e.history.source),
    status: verdictStatus(results),
    limits: resolved.limits,
    results,
    ...(notes.length > 0 ? { notes } : {}),
  };
}
export { evaluate as evaluateFit } from './forecast/fit.ts';
export {
  FORECAST_LIMITS,
  type Forecast,
  type ForecastLimits,
  forecastLimits,
  forecastRun,
  METRICS,
  type Metric,
} from './forecast/forecast.ts';
export { breakOf, type ProfiledCall, type ProfiledTurn, profileRun, type RunBreak, type RunProfile } from './run/run-profile.ts';
