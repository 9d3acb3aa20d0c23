/**
 * The incidents longrun reproduces, and how a history shows each: one rule, read by the
 * `wft.no-retry-loop` invariant and by the run records the expectations judge, so a check and
 * a `reproduces:` expectation never disagree about what TMPRL1103 looks like.
 */
import { historyLimitOf } from '../contract/history-limits.ts';
import type { FailureSummary, HistoryEvent, LoadedHistory } from './history/model.ts';

/** tmprl1103: a payload past the blob limit (2026-11-08); the other two: a history limit terminated the run. */
export const INCIDENTS = ['tmprl1103', 'history-size', 'history-count'] as const;
export type Incident = (typeof INCIDENTS)[number];

function payloadsTooLarge(failure: FailureSummary | undefined): boolean {
  return !!failure && (failure.types.includes('PayloadsTooLarge') || failure.text.includes('[TMPRL1103]'));
}

/** Whether the event is TMPRL1103: a workflow task or an activity failed for a payload past the blob limit. */
export function isPayloadTooLarge(event: HistoryEvent): boolean {
  const { attrs } = event;
  if (attrs.kind === 'workflow-task-failed') return /PAYLOADS_TOO_LARGE/i.test(attrs.cause) || payloadsTooLarge(attrs.failure);
  return attrs.kind === 'activity-closed' && payloadsTooLarge(attrs.failure);
}

/**
 * A failure's text that says External Storage could not be reached: the S3 driver's
 * "S3StorageDriver store failed" or "retrieve failed", which the SDK fails a workflow task with
 * and Temporal retries until the store answers again (an outage waited out, not a loop).
 */
export function storeUnreachable(text: string | undefined): boolean {
  return /StorageDriver (store|retrieve) failed/.test(text ?? '');
}

/** The incidents a run's histories show. */
export function incidentsOf(histories: readonly LoadedHistory[]): Incident[] {
  const found = new Set<Incident>();
  for (const history of histories) {
    for (const event of history.events) {
      if (isPayloadTooLarge(event)) found.add('tmprl1103');
      if (event.type === 'WorkflowExecutionTerminated') {
        const limit = historyLimitOf((event.attrs as { reason?: string }).reason ?? '');
        if (limit) found.add(limit);
      }
    }
  }
  return [...found];
}
