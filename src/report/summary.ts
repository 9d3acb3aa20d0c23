/**
 * What one longrun invocation found: the runner fills it, the reports render it, and
 * `runScenario()` returns it. Plain JSON (summary.json is this object).
 */
import type { InvariantResult } from '../checks/index.ts';
import type { LoadMetrics } from '../load/index.ts';

export interface TurnRecord {
  /** Turn number over the whole run (continues across ContinueAsNew). */
  turn: number;
  /** Which execution of the run (1 for the first) sent it. */
  execution: number;
  /** Serialized request bytes of this turn's call_model input. */
  requestBytes: number;
  /** Time from call_model scheduled to completed, ms. */
  latencyMs?: number;
}

export interface CompactionRecord {
  turn: number;
  ok: boolean;
  bytesBefore?: number;
  bytesAfter?: number;
  kept?: number;
  dropped?: number;
  reason?: string;
}

export interface ExecutionRecord {
  /** Temporal's run id of this execution. */
  temporalRunId: string;
  /** Serialized history size, bytes. */
  historyBytes: number;
  events: number;
  /** How the execution closed; 'running' when longrun stopped it or gave up waiting. */
  closedBy: 'completed' | 'continued-as-new' | 'failed' | 'terminated' | 'timed-out' | 'canceled' | 'running';
  /** Reason or failure message, when there is one. */
  reason?: string;
}

export interface RunRecord {
  runId: string;
  workflowId: string;
  binary: string;
  /** The run's overall outcome, from its last execution. */
  outcome: ExecutionRecord['closedBy'];
  startedAt: string;
  durationMs: number;
  executions: ExecutionRecord[];
  turns: TurnRecord[];
  compactions: CompactionRecord[];
  /** Workflow tasks that failed (PAYLOADS_TOO_LARGE loops and others). */
  workflowTaskFailures: number;
  /**
   * Incidents this run shows: 'tmprl1103' (a PAYLOADS_TOO_LARGE task failure), 'history-size' (terminated by the
   * history-size limit), 'history-count' (terminated by the history event-count limit).
   */
  incidents: string[];
  invariants: InvariantResult[];
  /** Relative paths (in the report folder) of the saved histories, one per execution. */
  historyFiles: string[];
}

export interface ExpectationRecord {
  /** What was expected, in words ("tmprl1103 reproduces on v0"). */
  description: string;
  met: boolean;
  detail: string;
}

export interface Summary {
  scenario: string;
  /** The scenario file, when it came from one. */
  scenarioFile?: string;
  seed: number;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** True when longrun was interrupted (Ctrl-C, SIGTERM, time budget) before it finished. */
  partial: boolean;
  /** Where it ran, never with credentials. */
  environment: string;
  /** The limits the runs were judged against. */
  limits: {
    blobLimitBytes: number;
    compactionTriggerBytes: number;
    continueAsNewBytes: number;
    historySizeLimitBytes: number;
    /** The server's `limit.historyCount.error` (absent from summaries written before it was reported). */
    historyCountLimit?: number;
  };
  runs: RunRecord[];
  expectations: ExpectationRecord[];
  totals: {
    runs: number;
    turns: number;
    requestBytes: number;
    violations: number;
    /** Turn latency percentiles, ms. */
    latency: { p50: number; p95: number; p99: number };
  };
  /** Throughput, turn latency, and worker and server RSS and CPU over the run. */
  load?: LoadMetrics;
  /** Every expectation met (and nothing partial). */
  passed: boolean;
}
