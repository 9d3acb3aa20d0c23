/**
 * Summaries for the report's tests, built deterministically from a few knobs: runs that grow,
 * compact (or fail to), continue as new, and break invariants with evidence full of markup.
 */
import { HISTORY_INVARIANT_IDS, type HistoryInvariantId, type Incident, type InvariantResult } from '../../checks/index.ts';
import {
  BLOB_LIMIT_BYTES,
  COMPACTION_TRIGGER_BYTES,
  CONTINUE_AS_NEW_BYTES,
  HISTORY_COUNT_LIMIT,
  HISTORY_SIZE_LIMIT_BYTES,
} from '../../contract/limits.ts';
import type { BinaryId } from '../../kernel/index.ts';
import type { CompactionRecord, ExecutionRecord, ExpectationRecord, RunRecord, Summary, TurnRecord } from '../index.ts';
import { totalsOf } from '../totals.ts';

export const FIXTURE_LIMITS: Summary['limits'] = {
  blobLimitBytes: BLOB_LIMIT_BYTES,
  compactionTriggerBytes: COMPACTION_TRIGGER_BYTES,
  continueAsNewBytes: CONTINUE_AS_NEW_BYTES,
  historySizeLimitBytes: HISTORY_SIZE_LIMIT_BYTES,
  historyCountLimit: HISTORY_COUNT_LIMIT,
};

/** Evidence with everything XML and HTML must escape: markup, ampersands, both quotes, a control character. */
export const NASTY_EVIDENCE =
  'event 57 ActivityTaskScheduled call_model input <messages> is 2,203,001 bytes >= "blob limit" & \'2 MiB\'\u0007';

export interface FixtureRunOptions {
  runId: string;
  binary?: BinaryId;
  turns: number;
  /** Request bytes added per turn (a deterministic wobble is added on top). */
  growthBytes: number;
  /** 'ok': compact above the trigger; 'fail-first': the first compaction fails, the next succeeds; 'none': v0. */
  compaction: 'ok' | 'fail-first' | 'none';
  outcome?: RunRecord['outcome'];
  failures?: Partial<Record<HistoryInvariantId, string[]>>;
  workflowTaskFailures?: number;
  incidents?: Incident[];
}

const BYTES_AFTER_COMPACTION = 240_000;
const FIRST_REQUEST_BYTES = 60_000;

function invariantResults(run: FixtureRunOptions, compactions: readonly CompactionRecord[], executions: number): InvariantResult[] {
  const exercised: Record<HistoryInvariantId, boolean> = {
    'payload.ceiling': true,
    'payload.references-resolve': false,
    'wft.no-retry-loop': true,
    'history.no-termination': true,
    'history.continue-as-new': executions > 1,
    'can.clean-boundary': executions > 1,
    'can.carry-over': executions > 1,
    'compaction.trigger': compactions.length > 0,
    'compaction.failure-continues': compactions.some((c) => !c.ok),
    'compaction.card': compactions.some((c) => c.ok),
    'compaction.digest-coverage': compactions.length > 0,
    'elision.minimal': false,
    'rebuild.contract': compactions.some((c) => c.ok),
    'journal.chain': true,
    'run.liveness': true,
    'versioning.pinned-build': false,
  };
  return HISTORY_INVARIANT_IDS.map((id): InvariantResult => {
    const failures = run.failures?.[id];
    if (failures) return { id, status: 'fail', evidence: failures };
    return exercised[id]
      ? { id, status: 'pass', evidence: [`checked over ${run.turns} turns`] }
      : { id, status: 'not-applicable', evidence: [`${id} was not exercised by ${run.runId}`] };
  });
}

/** One run: request bytes grow each turn, compaction resets them, ContinueAsNew follows the budget. */
export function fixtureRun(options: FixtureRunOptions): RunRecord {
  const turns: TurnRecord[] = [];
  const compactions: CompactionRecord[] = [];
  const executions: ExecutionRecord[] = [];
  let requestBytes = FIRST_REQUEST_BYTES;
  let accumulated = 0;
  let execution = 1;
  let failedOnce = false;
  let eventsInExecution = 0;
  const closeExecution = (closedBy: ExecutionRecord['closedBy'], reason?: string) => {
    executions.push({
      temporalRunId: `${options.runId}-execution-${execution}`,
      historyBytes: Math.round(accumulated * 1.05),
      events: eventsInExecution,
      closedBy,
      ...(reason === undefined ? {} : { reason }),
    });
  };
  for (let turn = 1; turn <= options.turns; turn++) {
    if (accumulated > FIXTURE_LIMITS.continueAsNewBytes) {
      closeExecution('continued-as-new');
      execution++;
      accumulated = 0;
      eventsInExecution = 0;
    }
    requestBytes += options.growthBytes + ((turn * 7919) % 23) * 1000;
    if (requestBytes > FIXTURE_LIMITS.compactionTriggerBytes && options.compaction !== 'none') {
      if (options.compaction === 'fail-first' && !failedOnce) {
        failedOnce = true;
        compactions.push({ turn, ok: false, bytesBefore: requestBytes, reason: 'compaction model answered 500 <Internal> & gave up' });
      } else {
        compactions.push({ turn, ok: true, bytesBefore: requestBytes, bytesAfter: BYTES_AFTER_COMPACTION, kept: 4, dropped: turn - 4 });
        requestBytes = BYTES_AFTER_COMPACTION;
      }
    }
    accumulated += requestBytes;
    eventsInExecution += 11;
    turns.push({ turn, execution, requestBytes, latencyMs: 300 + ((turn * 37) % 900) + (turn % 50 === 0 ? 4000 : 0) });
  }
  const outcome = options.outcome ?? 'completed';
  closeExecution(outcome, outcome === 'completed' ? undefined : `${options.runId} ended ${outcome}`);
  return {
    runId: options.runId,
    workflowId: `longrun-${options.runId}`,
    binary: options.binary ?? 'v1',
    outcome,
    startedAt: '2026-11-30T10:41:07.000Z',
    durationMs: options.turns * 850,
    executions,
    turns,
    compactions,
    workflowTaskFailures: options.workflowTaskFailures ?? 0,
    incidents: options.incidents ?? [],
    invariants: invariantResults(options, compactions, executions.length),
    historyFiles: executions.map((_, index) => `histories/${options.runId}/${index + 1}.json`),
  };
}

/** A summary around the runs, its totals computed from them. */
export function fixtureSummary(runs: RunRecord[], overrides: Partial<Summary> = {}): Summary {
  const expectations = overrides.expectations ?? [];
  const partial = overrides.partial ?? false;
  return {
    scenario: 'fixture',
    seed: 42,
    startedAt: '2026-11-30T10:41:07.000Z',
    finishedAt: '2026-11-30T10:45:12.000Z',
    durationMs: 245_000,
    environment: 'embedded Temporal 1.32.1 (SQLite, in memory)',
    limits: FIXTURE_LIMITS,
    runs,
    expectations,
    totals: totalsOf(runs),
    passed: !partial && expectations.every((expectation) => expectation.met),
    ...overrides,
    partial,
  };
}

export const FIXTURE_EXPECTATIONS: ExpectationRecord[] = [
  { description: 'all invariants hold on current', met: true, detail: '2 runs of current, no violation' },
  {
    description: 'tmprl1103 does not reproduce on v0',
    met: false,
    detail: 'v0-0001: payload.ceiling failed <event 57> & wft.no-retry-loop failed',
  },
];

/**
 * Three runs (a ContinueAsNew and compactions; a failed then a good compaction; v0 breaking
 * the ceiling), two expectations (one unmet), interrupted (`partial`). `extraRuns` adds
 * passing runs to test the caps.
 */
export function standardFixture(options: { partial?: boolean; extraRuns?: number; extraRunTurns?: number } = {}): Summary {
  const runs = [
    fixtureRun({ runId: 'current-0001', turns: 260, growthBytes: 40_000, compaction: 'ok' }),
    fixtureRun({ runId: 'current-0002', turns: 80, growthBytes: 30_000, compaction: 'fail-first' }),
    fixtureRun({
      runId: 'v0-0001',
      binary: 'v0',
      turns: 45,
      growthBytes: 45_000,
      compaction: 'none',
      outcome: 'terminated',
      workflowTaskFailures: 12,
      incidents: ['tmprl1103'],
      failures: {
        'payload.ceiling': [NASTY_EVIDENCE, 'event 61 ActivityTaskScheduled call_model input is 2,251,330 bytes'],
        'wft.no-retry-loop': ['12 WorkflowTaskFailed events with cause PAYLOADS_TOO_LARGE, first at event 58'],
      },
    }),
  ];
  for (let i = 1; i <= (options.extraRuns ?? 0); i++) {
    runs.push(
      fixtureRun({
        runId: `load-${String(i).padStart(4, '0')}`,
        turns: options.extraRunTurns ?? 60,
        growthBytes: 20_000 + (i % 17) * 1500,
        compaction: 'ok',
      }),
    );
  }
  return fixtureSummary(runs, { expectations: FIXTURE_EXPECTATIONS, partial: options.partial ?? true });
}
