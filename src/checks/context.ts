/**
 * What the checks judge against. Limits resolve in this order, last wins: the kernel mapping's
 * defaults (src/contract/limits.ts for our kernel), the check context (a scenario's overrides),
 * the run's own `RunInput.limits` (what the kernel was actually told).
 */
import type { KernelLimits } from '../contract/kernel-api.ts';
import type { StoredPayloads } from './history/external-storage.ts';
import { RECENT_TOOL_OUTPUTS_KEPT } from './history/summarize.ts';
import type { KernelMapping } from './mapping.ts';
import type { GateMode } from './run/run-view.ts';
import { SERVER_LIMITS } from './server-limits.ts';

export interface CheckContext {
  limits?: Partial<KernelLimits>;
  /** `limit.historySize.error` of the server (default 500 MiB, the deployment's: server-limits.ts). */
  historySizeLimitBytes?: number;
  /** `limit.historyCount.error` of the server (default 51,200, Temporal's). */
  historyCountLimit?: number;
  /** This many consecutive WorkflowTaskFailed events make a retry loop (default 3). */
  workflowTaskFailureRun?: number;
  /** How long a run may take, first event to last (the scenario's `runs.timeout`); unbounded when absent. */
  runTimeoutMs?: number;
  /** call_model activities allowed after the one that passed the ContinueAsNew budget (default 1). */
  continueAsNewGraceTurns?: number;
  card?: {
    /** The most recent tool outputs sent to compaction whose identifiers the card must keep (default 1). */
    recentToolOutputs?: number;
    /** Share of the required identifiers the card must hold verbatim (default 1). */
    minIdentifierShare?: number;
  };
  /**
   * Where the compaction gate opens in an execution that records its patch marker: for the whole
   * execution (default), or at the marker (a newer binary took over mid-execution).
   */
  gateOpens?: GateMode;
  /** How to read histories given raw to checkRun (default: our kernel). */
  mapping?: KernelMapping;
  /**
   * The stored payloads of the run's External Storage references, by `referenceKey`, fetched by
   * the caller (history/external-storage.ts): checkRun reads them in place of the references, and
   * `payload.references-resolve` judges every reference against them. Absent: no store was given
   * (`longrun check` on a file), and the checks that need a stored payload are not applicable.
   */
  storedPayloads?: StoredPayloads;
  /** The store's own limit on one stored payload, in bytes (the S3 driver's `maxPayloadSize`, 50 MiB by default); unjudged when absent. */
  storedPayloadLimitBytes?: number;
}

export interface ResolvedContext {
  limits: KernelLimits;
  historySizeLimitBytes: number;
  historyCountLimit: number;
  workflowTaskFailureRun: number;
  runTimeoutMs: number | undefined;
  continueAsNewGraceTurns: number;
  card: { recentToolOutputs: number; minIdentifierShare: number };
  gateOpens: GateMode;
  storedPayloads: StoredPayloads | undefined;
  storedPayloadLimitBytes: number | undefined;
}

function whole(field: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`check context: ${field} must be an integer >= ${min}, got ${value}`);
  return value;
}

function definedNumbers(limits: Partial<KernelLimits> | undefined): Partial<KernelLimits> {
  return Object.fromEntries(
    Object.entries(limits ?? {}).filter(([, value]) => typeof value === 'number' && value > 0),
  ) as Partial<KernelLimits>;
}

function gateMode(value: string | undefined): GateMode {
  if (value === undefined || value === 'with-execution' || value === 'at-marker') return value ?? 'with-execution';
  throw new Error(`check context: gateOpens must be "with-execution" or "at-marker", got ${value}`);
}

export function resolveContext(ctx: CheckContext, mapping: KernelMapping, runLimits: Partial<KernelLimits>): ResolvedContext {
  for (const [field, value] of Object.entries(ctx.limits ?? {})) {
    if (!Number.isInteger(value) || (value as number) <= 0) {
      throw new Error(`check context: limits.${field} must be a positive integer, got ${value}`);
    }
  }
  const share = ctx.card?.minIdentifierShare ?? 1;
  if (!(share >= 0 && share <= 1)) throw new Error(`check context: card.minIdentifierShare must be in [0, 1], got ${share}`);
  const recent = whole('card.recentToolOutputs', ctx.card?.recentToolOutputs, 1, 0);
  if (recent > RECENT_TOOL_OUTPUTS_KEPT) {
    throw new Error(`check context: card.recentToolOutputs must be <= ${RECENT_TOOL_OUTPUTS_KEPT}, got ${recent}`);
  }
  return {
    limits: { ...mapping.limits, ...ctx.limits, ...definedNumbers(runLimits) },
    historySizeLimitBytes: whole('historySizeLimitBytes', ctx.historySizeLimitBytes, SERVER_LIMITS.historySizeLimitBytes),
    historyCountLimit: whole('historyCountLimit', ctx.historyCountLimit, SERVER_LIMITS.historyCountLimit),
    workflowTaskFailureRun: whole('workflowTaskFailureRun', ctx.workflowTaskFailureRun, 3),
    runTimeoutMs: ctx.runTimeoutMs === undefined ? undefined : whole('runTimeoutMs', ctx.runTimeoutMs, 0),
    continueAsNewGraceTurns: whole('continueAsNewGraceTurns', ctx.continueAsNewGraceTurns, 1, 0),
    card: { recentToolOutputs: recent, minIdentifierShare: share },
    gateOpens: gateMode(ctx.gateOpens),
    storedPayloads: ctx.storedPayloads,
    storedPayloadLimitBytes:
      ctx.storedPayloadLimitBytes === undefined ? undefined : whole('storedPayloadLimitBytes', ctx.storedPayloadLimitBytes, 0),
  };
}
