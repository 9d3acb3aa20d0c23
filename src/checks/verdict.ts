/** What a check says about a run. */
import type { KernelLimits } from '../contract/kernel-api.ts';
import type { ResolvedContext } from './context.ts';
import type { RunView } from './run/run-view.ts';

export const HISTORY_INVARIANT_IDS = [
  'payload.ceiling',
  'payload.references-resolve',
  'wft.no-retry-loop',
  'history.no-termination',
  'history.continue-as-new',
  'can.clean-boundary',
  'can.carry-over',
  'compaction.trigger',
  'compaction.failure-continues',
  'compaction.card',
  'compaction.digest-coverage',
  'elision.minimal',
  'rebuild.contract',
  'journal.chain',
  'run.liveness',
  'versioning.pinned-build',
] as const;
export type HistoryInvariantId = (typeof HISTORY_INVARIANT_IDS)[number];
/**
 * Judged by the harness, not from a history: `replay.cross-version` on replay workers,
 * `requests.accepted` from the requests longrun's mocks refused.
 */
export const HARNESS_INVARIANT_IDS = ['replay.cross-version', 'requests.accepted'] as const;
export const INVARIANT_IDS = [...HISTORY_INVARIANT_IDS, ...HARNESS_INVARIANT_IDS] as const;
export type InvariantId = (typeof INVARIANT_IDS)[number];

export type InvariantStatus = 'pass' | 'fail' | 'not-applicable';

export interface InvariantResult {
  id: InvariantId;
  status: InvariantStatus;
  /** Why, naming event ids and numbers; failures first. */
  evidence: string[];
}

/**
 * `any-workflow`: judges every Temporal workflow from its events alone. `agent`: needs the
 * model calls the mapping names, whatever the workflow's input (an agent started with its own
 * signature). `kernel`: needs the kernel's mechanism (RunInput, call_model, journal, gate), and
 * is not applicable without it.
 */
export type InvariantScope = 'any-workflow' | 'agent' | 'kernel';

export interface HistoryInvariant {
  id: HistoryInvariantId;
  appliesTo: InvariantScope;
  description: string;
  /**
   * `false`: judged from the events and the history's own sizes alone, so also where a payload
   * offloaded to External Storage was not read. Otherwise (the default) such a payload makes the
   * invariant not applicable, with the reason (index.ts): it would misread what it cannot see.
   */
  readsPayloads?: false;
  check(run: RunView, ctx: ResolvedContext): InvariantResult;
}

export interface RunVerdict {
  /** longrun's run id (from the run's input); for another workflow, its workflow id (else its first run id). */
  runId: string;
  /** Set when the mapping did not find the kernel's mechanism: the workflow's type, and why. */
  foreign?: { workflowType: string; reason: string };
  sources: string[];
  /** `fail` when any invariant fails. */
  status: 'pass' | 'fail';
  limits: KernelLimits;
  results: InvariantResult[];
  /** What the judging left unread, and why (history/uninterpreted.ts); absent when it read every event. */
  notes?: string[];
}

const MAX_EVIDENCE = 40;

/** fail when there are failures; otherwise pass when the invariant was exercised, else not-applicable. */
export function judge(id: InvariantId, failures: readonly string[], notes: readonly string[], exercised: boolean): InvariantResult {
  const status: InvariantStatus = failures.length > 0 ? 'fail' : exercised ? 'pass' : 'not-applicable';
  const all = [...failures, ...notes];
  const evidence = all.length > MAX_EVIDENCE ? [...all.slice(0, MAX_EVIDENCE - 1), `... and ${all.length - MAX_EVIDENCE + 1} more`] : all;
  return { id, status, evidence };
}

/** The verdict's status over its results (after adding, e.g., the replay harness's result). */
export function verdictStatus(results: readonly InvariantResult[]): 'pass' | 'fail' {
  return results.some((r) => r.status === 'fail') ? 'fail' : 'pass';
}

/**
 * n as `toLocaleString('en-US')` writes it (1,234,567). Whole numbers are grouped here: the
 * first toLocaleString loads ICU's locale data, ~20 ms of a check's CPU.
 */
export function bytes(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}
