import type { ResolvedReference } from '../history/external-storage.ts';
import type { HistoryEvent } from '../history/model.ts';
import type { Execution, RunView } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, judge } from '../verdict.ts';

/** A reference's place for evidence: "event 99 ActivityTaskScheduled call_model input[0] (activity input)". */
export function referencePlace(run: RunView, execution: Execution, r: ResolvedReference): string {
  const activity = r.activityType ? ` ${r.activityType}` : '';
  return `${run.at(execution, r.eventId)}: ${r.eventType}${activity} ${r.field}[${r.index}] (${r.place})`;
}

/** The name the official S3 driver writes in its references, and its default `maxPayloadSize` (50 MiB). */
const S3_DRIVER_NAME = 'aws.s3driver';
const S3_MAX_PAYLOAD_BYTES = 50 * 1024 * 1024;

/**
 * The payloads offloaded to External Storage: the bytes their references take in the history
 * (counted above with the rest) and the bytes stored behind them (measured where the stored
 * payload was read, else as the reference states), and each over the store's own limit.
 */
function storedSizes(run: RunView, storeLimit: number | undefined): { failures: string[]; notes: string[] } {
  const failures: string[] = [];
  let count = 0;
  let inHistory = 0;
  let stored = 0;
  let unsized = 0;
  let largest: { place: string; bytes: number } | undefined;
  for (const execution of run.executions) {
    for (const r of execution.history.references ?? []) {
      count++;
      inHistory += r.referenceBytes;
      const size = r.storedBytes ?? r.sizeBytes;
      if (size === undefined) {
        unsized++;
        continue;
      }
      stored += size;
      if (!largest || size > largest.bytes) largest = { place: referencePlace(run, execution, r), bytes: size };
      // The S3 driver refuses a payload past its maxPayloadSize: its default holds where the context names none.
      const limit = storeLimit ?? (r.driverName === S3_DRIVER_NAME ? S3_MAX_PAYLOAD_BYTES : undefined);
      if (limit !== undefined && size > limit) {
        const whose = storeLimit === undefined ? "the S3 driver's default limit" : "the store's limit";
        failures.push(`${referencePlace(run, execution, r)}: stored payload ${bytes(size)} bytes > ${whose} ${bytes(limit)}`);
      }
    }
  }
  if (count === 0) return { failures, notes: [] };
  const unstated = unsized > 0 ? ` (${unsized} of unknown size)` : '';
  const most = largest ? `; largest stored ${largest.place} ${bytes(largest.bytes)} bytes` : '';
  const limit = storeLimit !== undefined ? ` (store limit ${bytes(storeLimit)})` : '';
  return {
    failures,
    notes: [
      `${count} payloads offloaded to External Storage: ${bytes(inHistory)} bytes of references in the history, ${bytes(stored)} bytes stored${unstated}${most}${limit}`,
    ],
  };
}

/** The activity type an activity event concerns, for evidence. */
function activityLabel(execution: Execution, event: HistoryEvent): string {
  const { attrs } = event;
  if (attrs.kind === 'activity-scheduled') return ` ${attrs.activityType}`;
  if (attrs.kind === 'activity-closed' || attrs.kind === 'activity-started') {
    const activity = execution.activities.find((a) => a.scheduled.id === attrs.scheduledEventId);
    return activity ? ` ${activity.type}` : '';
  }
  return '';
}

export const payloadCeiling: HistoryInvariant = {
  id: 'payload.ceiling',
  appliesTo: 'any-workflow',
  description:
    "no payload of any event reaches the blob limit (a reference to External Storage is judged by what the history carries), and no stored payload passes the store's own limit",
  readsPayloads: false,
  check(run, ctx) {
    const limit = ctx.limits.blobLimitBytes;
    const failures: string[] = [];
    let count = 0;
    // Named only when told: finding an activity's type searches the execution's activities.
    const where = (execution: Execution, event: HistoryEvent, field: string) =>
      `${run.at(execution, event.id)}: ${event.type}${activityLabel(execution, event)} ${field}`;
    let largest: { execution: Execution; event: HistoryEvent; field: string; bytes: number } | undefined;
    for (const execution of run.executions) {
      for (const event of execution.history.events) {
        for (const field of event.payloads) {
          count++;
          if (!largest || field.bytes > largest.bytes) largest = { execution, event, field: field.field, bytes: field.bytes };
          if (field.bytes >= limit)
            failures.push(`${where(execution, event, field.field)} ${bytes(field.bytes)} bytes >= limit ${bytes(limit)}`);
        }
      }
    }
    const notes = largest
      ? [
          `${count} payloads; largest ${where(largest.execution, largest.event, largest.field)} ${bytes(largest.bytes)} bytes (limit ${bytes(limit)}, headroom ${bytes(limit - largest.bytes)})`,
        ]
      : ['no payloads'];
    const offloaded = storedSizes(run, ctx.storedPayloadLimitBytes);
    return judge(this.id, [...failures, ...offloaded.failures], [...notes, ...offloaded.notes], true);
  },
};
