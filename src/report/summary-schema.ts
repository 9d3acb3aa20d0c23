/**
 * The shape of `Summary` at runtime, for writing (catch a runner's mistake before anything is
 * written) and for reading a `summary.json` back. Typed against `Summary`, so it cannot drift.
 */
import { z } from 'zod';
import { HISTORY_INVARIANT_IDS } from '../checks/index.ts';
import type { Summary } from './summary.ts';

const bytes = z.number().int().nonnegative();
const timestamp = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'not a date');
const closedBy = z.enum(['completed', 'continued-as-new', 'failed', 'terminated', 'timed-out', 'canceled', 'running']);

const invariantResult = z.object({
  id: z.enum([...HISTORY_INVARIANT_IDS, 'replay.cross-version']),
  status: z.enum(['pass', 'fail', 'not-applicable']),
  evidence: z.array(z.string()),
});

const run = z.object({
  runId: z.string().min(1),
  workflowId: z.string(),
  binary: z.string(),
  outcome: closedBy,
  startedAt: timestamp,
  durationMs: z.number().nonnegative(),
  executions: z.array(
    z.object({
      temporalRunId: z.string(),
      historyBytes: bytes,
      events: z.number().int().nonnegative(),
      closedBy,
      reason: z.string().optional(),
    }),
  ),
  turns: z.array(
    z.object({
      turn: z.number().int().positive(),
      execution: z.number().int().positive(),
      requestBytes: bytes,
      latencyMs: z.number().nonnegative().optional(),
    }),
  ),
  compactions: z.array(
    z.object({
      turn: z.number().int().positive(),
      ok: z.boolean(),
      bytesBefore: bytes.optional(),
      bytesAfter: bytes.optional(),
      kept: z.number().int().nonnegative().optional(),
      dropped: z.number().int().nonnegative().optional(),
      reason: z.string().optional(),
    }),
  ),
  workflowTaskFailures: z.number().int().nonnegative(),
  incidents: z.array(z.string()),
  invariants: z.array(invariantResult),
  historyFiles: z.array(z.string()),
});

const summarySchema: z.ZodType<Summary> = z.object({
  scenario: z.string().min(1),
  scenarioFile: z.string().optional(),
  seed: z.number().int(),
  startedAt: timestamp,
  finishedAt: timestamp,
  durationMs: z.number().nonnegative(),
  partial: z.boolean(),
  environment: z.string(),
  limits: z.object({
    blobLimitBytes: bytes.positive(),
    compactionTriggerBytes: bytes.positive(),
    continueAsNewBytes: bytes.positive(),
    historySizeLimitBytes: bytes.positive(),
    historyCountLimit: z.number().int().positive().optional(),
  }),
  runs: z.array(run),
  expectations: z.array(z.object({ description: z.string(), met: z.boolean(), detail: z.string() })),
  totals: z.object({
    runs: z.number().int().nonnegative(),
    turns: z.number().int().nonnegative(),
    requestBytes: bytes,
    violations: z.number().int().nonnegative(),
    latency: z.object({ p50: z.number().nonnegative(), p95: z.number().nonnegative(), p99: z.number().nonnegative() }),
  }),
  passed: z.boolean(),
});

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
