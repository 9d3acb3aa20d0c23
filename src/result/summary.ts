/**
 * What one longrun invocation found: the runner fills it, the reports render it, and
 * `runScenario()` returns it. Plain JSON (summary.json is this object). The schema is the
 * definition, the types are inferred from it: reading a summary.json back and checking one
 * before it is written use the same rules the compiler holds the runner to.
 */
import { z } from 'zod';
import { binaryNameSchema, incidentSchema, invariantIdSchema } from './ids.ts';
import { loadMetricsSchema } from './load.ts';

const bytes = z.number().int().nonnegative();
const count = z.number().int().nonnegative();
const timestamp = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'not a date');

/** How an execution closed; 'running' when longrun stopped it or gave up waiting. */
export const closedBySchema = z.enum(['completed', 'continued-as-new', 'failed', 'terminated', 'timed-out', 'canceled', 'running']);
export type ClosedBy = z.infer<typeof closedBySchema>;

export const invariantRecordSchema = z.object({
  id: invariantIdSchema,
  status: z.enum(['pass', 'fail', 'not-applicable']),
  /** Why, naming event ids and numbers; failures first. */
  evidence: z.array(z.string()),
});

export const turnRecordSchema = z.object({
  /** Turn number over the whole run (continues across ContinueAsNew). */
  turn: z.number().int().positive(),
  /** Which execution of the run (1 for the first) sent it. */
  execution: z.number().int().positive(),
  /** Serialized request bytes of this turn's call_model input. */
  requestBytes: bytes,
  /** Time from call_model scheduled to completed, ms. */
  latencyMs: z.number().nonnegative().optional(),
});
export type TurnRecord = z.infer<typeof turnRecordSchema>;

export const compactionRecordSchema = z.object({
  turn: z.number().int().positive(),
  ok: z.boolean(),
  bytesBefore: bytes.optional(),
  bytesAfter: bytes.optional(),
  kept: count.optional(),
  dropped: count.optional(),
  reason: z.string().optional(),
});
export type CompactionRecord = z.infer<typeof compactionRecordSchema>;

/** One replay of a run's histories (every execution) on one binary's replayer. */
export const replayRecordSchema = z.object({
  /** The binary whose replayer ran them. */
  on: binaryNameSchema,
  /** identical; nondeterministic (the replayer named a divergence); not-replayed (it could not be done: a crash, its timeout). */
  result: z.enum(['identical', 'nondeterministic', 'not-replayed']),
  /** The binary is a broken control: its failure may be the control caught, never a release's slip. */
  control: z.boolean(),
});
export type ReplayRecord = z.infer<typeof replayRecordSchema>;

export const executionRecordSchema = z.object({
  /** Temporal's run id of this execution. */
  temporalRunId: z.string(),
  /** Serialized history size, bytes. */
  historyBytes: bytes,
  events: count,
  closedBy: closedBySchema,
  /** Reason or failure message, when there is one. */
  reason: z.string().optional(),
});
export type ExecutionRecord = z.infer<typeof executionRecordSchema>;

export const runRecordSchema = z.object({
  runId: z.string().min(1),
  workflowId: z.string(),
  /** The binary the run is judged as: the one that ran it last. */
  binary: binaryNameSchema,
  /** The run's overall outcome, from its last execution. */
  outcome: closedBySchema,
  startedAt: timestamp,
  durationMs: z.number().nonnegative(),
  executions: z.array(executionRecordSchema),
  turns: z.array(turnRecordSchema),
  compactions: z.array(compactionRecordSchema),
  /** Workflow tasks that failed (PAYLOADS_TOO_LARGE loops and others). */
  workflowTaskFailures: count,
  /** Incidents this run shows (src/checks/incidents.ts). */
  incidents: z.array(incidentSchema),
  /** The first limit the run hit and the turn it hit it at (src/checks/run/run-profile.ts `breakOf`); absent when it hit none. */
  broke: z.object({ incident: incidentSchema, turn: z.number().int().positive() }).optional(),
  invariants: z.array(invariantRecordSchema),
  /** Where its histories were replayed, one entry per binary (absent from summaries written before it was recorded). */
  replays: z.array(replayRecordSchema).optional(),
  /** Relative paths (in the report folder) of the saved histories, one per execution. */
  historyFiles: z.array(z.string()),
  /**
   * A foreign workflow that closed before its first model call: how it ended, what it was started
   * with and what the scenario declares; or a chat agent's conversation that stopped short: which
   * message and why. One line (src/runner/early-end.ts).
   */
  earlyEnd: z.string().optional(),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

export const expectationRecordSchema = z.object({
  /** What was expected, in words ("tmprl1103 reproduces on v0"). */
  description: z.string(),
  met: z.boolean(),
  detail: z.string(),
});
export type ExpectationRecord = z.infer<typeof expectationRecordSchema>;

/** A run that went wrong in a way no expectation judges or explains (src/runner/unexplained-runs.ts). */
export const unexplainedRunSchema = z.object({
  runId: z.string().min(1),
  binary: binaryNameSchema,
  /** Its first evidence line: how it ended, or the invariant it violated and why. */
  why: z.string(),
});
export type UnexplainedRun = z.infer<typeof unexplainedRunSchema>;

export const summarySchema = z.object({
  scenario: z.string().min(1),
  /** The scenario file, when it came from one. */
  scenarioFile: z.string().optional(),
  seed: z.number().int(),
  startedAt: timestamp,
  finishedAt: timestamp,
  durationMs: z.number().nonnegative(),
  /** True when longrun was interrupted (Ctrl-C, SIGTERM, time budget) before it finished. */
  partial: z.boolean(),
  /** Where it ran, never with credentials. */
  environment: z.string(),
  /** The limits the runs were judged against. */
  limits: z.object({
    blobLimitBytes: bytes.positive(),
    compactionTriggerBytes: bytes.positive(),
    continueAsNewBytes: bytes.positive(),
    historySizeLimitBytes: bytes.positive(),
    /** The server's `limit.historyCount.error` (absent from summaries written before it was reported). */
    historyCountLimit: z.number().int().positive().optional(),
  }),
  runs: z.array(runRecordSchema),
  expectations: z.array(expectationRecordSchema),
  /**
   * Runs that failed, were stopped or violated an invariant for a reason no expectation accounts
   * for (present when there is one): the summary does not pass while there is one.
   */
  unexplained: z.array(unexplainedRunSchema).optional(),
  totals: z.object({
    runs: count,
    turns: count,
    requestBytes: bytes,
    violations: count,
    /** Turn latency percentiles, ms. */
    latency: z.object({ p50: z.number().nonnegative(), p95: z.number().nonnegative(), p99: z.number().nonnegative() }),
    /**
     * Input tokens the model API was sent and answered (the mocks' requests, at the spec's bytes
     * per token): what a provider bills, the agent's requests and the compaction model's apart.
     * Absent where the mocks were not longrun's own.
     */
    inputTokens: z.object({ agent: count, compaction: count }).optional(),
  }),
  /** Throughput, turn latency, and worker and server RSS and CPU over the run. */
  load: loadMetricsSchema.optional(),
  /** Every expectation met, no run unexplained (and nothing partial). */
  passed: z.boolean(),
});
export type Summary = z.infer<typeof summarySchema>;

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`), 'summary');
}

/** Checks a summary (e.g. a parsed summary.json); throws a one-line error naming the first bad field. */
export function parseSummary(value: unknown): Summary {
  const result = summarySchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new Error(issue ? `${fieldPath(issue.path)}: ${issue.message}` : 'summary: invalid');
}
