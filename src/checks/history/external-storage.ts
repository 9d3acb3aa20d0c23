/**
 * Temporal's External Storage (claim check) as a history shows it: a payload over the writer's
 * threshold is stored by a driver (S3, ...) and replaced in the history by a reference payload,
 * the same in every SDK: metadata `encoding: json/protobuf` and `messageType:
 * temporal.api.sdk.v1.ExternalStorageReference`, data the reference's proto3 JSON (`driverName`,
 * `claimData`), and the stored payload's serialized size in the payload's own
 * `externalPayloads[0].sizeBytes`. This module finds the references of a history in any form
 * the checks read, and resolves them through the stored payloads a caller fetched.
 */
import { HistoryLoadError } from './errors.ts';
import { HistoryFileShapeError, streamHistoryEvents } from './event-stream.ts';
import { eachPayload, payloadSize, REFERENCE_MESSAGE_TYPE } from './payloads.ts';
import { eventTypeName, isRecord, toBuffer, toInt, toText } from './proto-values.ts';
import type { PayloadReference, StorageReference, StoredPayload, StoredPayloads } from './reference-model.ts';

export type { PayloadReference, ResolvedReference, StorageReference, StoredPayload, StoredPayloads } from './reference-model.ts';

export const REFERENCE_ENCODING = 'json/protobuf';
export { REFERENCE_MESSAGE_TYPE };

/** Python's mark on a reference its payload codec encoded (then unreadable without that codec). */
const ENCODED_REFERENCE_MARKER = '__temporal_external_storage_reference';

/** The key of a reference in `StoredPayloads`: its driver and its claim data, keys sorted. */
export function referenceKey({ driverName, claimData }: StorageReference): string {
  const claims = Object.keys(claimData)
    .sort()
    .map((name) => [name, claimData[name]]);
  return JSON.stringify([driverName, claims]);
}

function metadataText(payload: Record<string, unknown>, key: string): string | undefined {
  const value = isRecord(payload.metadata) ? payload.metadata[key] : undefined;
  return value === undefined || value === null ? undefined : toBuffer(value)?.toString('utf8');
}

/** Whether a payload is an External Storage reference (or one a codec encoded, marked so). */
export function isReferencePayload(payload: unknown): payload is Record<string, unknown> {
  if (!isRecord(payload) || !isRecord(payload.metadata)) return false;
  if (payload.metadata[ENCODED_REFERENCE_MARKER] !== undefined) return true;
  return metadataText(payload, 'messageType') === REFERENCE_MESSAGE_TYPE && metadataText(payload, 'encoding') === REFERENCE_ENCODING;
}

/** The stored size a reference states, from `externalPayloads` (SDK objects: `Long`; JSON: a string or a number). */
function statedSize(payload: Record<string, unknown>): number | undefined {
  const details = Array.isArray(payload.externalPayloads) ? payload.externalPayloads : payload.external_payloads;
  if (!Array.isArray(details) || details.length === 0) return undefined;
  let total = 0;
  for (const detail of details) total += (isRecord(detail) ? toInt(detail.sizeBytes ?? detail.size_bytes) : undefined) ?? 0;
  return total;
}

/** A reference payload read: its driver and claim, or why it cannot be read. */
export function readReference(payload: Record<string, unknown>): StorageReference & { sizeBytes?: number; problem?: string } {
  const sizeBytes = statedSize(payload);
  const sized = sizeBytes === undefined ? {} : { sizeBytes };
  const bad = (problem: string) => ({ driverName: '', claimData: {}, ...sized, problem });
  if (metadataText(payload, 'messageType') !== REFERENCE_MESSAGE_TYPE) {
    return bad(`a reference encoded by a payload codec (${metadataText(payload, 'encoding') ?? 'no encoding'}): unreadable without it`);
  }
  let value: unknown;
  try {
    value = JSON.parse(toBuffer(payload.data)?.toString('utf8') ?? '');
  } catch (error) {
    return bad(`its data is not JSON (${(error as Error).message})`);
  }
  if (!isRecord(value)) return bad('its data is not a JSON object');
  const driverName = value.driverName ?? value.driver_name;
  if (typeof driverName !== 'string' || driverName === '') return bad('no driverName');
  const claims = value.claimData ?? value.claim_data ?? {};
  if (!isRecord(claims) || Object.values(claims).some((v) => typeof v !== 'string')) return bad('claimData is not a map of strings');
  return { driverName, claimData: claims as Record<string, string>, ...sized };
}

const PLACES: Record<string, string> = {
  WorkflowExecutionStarted: 'workflow input',
  WorkflowExecutionContinuedAsNew: 'continue-as-new input',
  WorkflowExecutionCompleted: 'workflow result',
  ActivityTaskScheduled: 'activity input',
  ActivityTaskCompleted: 'activity result',
  MarkerRecorded: 'marker details',
  WorkflowExecutionSignaled: 'signal input',
  SignalExternalWorkflowExecutionInitiated: 'signal input',
  WorkflowExecutionUpdateAdmitted: 'update input',
  WorkflowExecutionUpdateAccepted: 'update input',
  WorkflowExecutionUpdateCompleted: 'update result',
  StartChildWorkflowExecutionInitiated: 'child workflow input',
  ChildWorkflowExecutionCompleted: 'child workflow result',
};

function placeOf(eventType: string, field: string): string {
  const head = field.split('.')[0] ?? field;
  if (head === 'header' || head === 'memo') return head;
  if (/failure/i.test(field)) return 'failure details';
  if (eventType === 'WorkflowExecutionStarted' && head === 'lastCompletionResult') return 'last completion result';
  return PLACES[eventType] ?? `${eventType} ${field}`;
}

function attributesOf(raw: Record<string, unknown>, type: string): unknown {
  return raw[`${type.charAt(0).toLowerCase()}${type.slice(1)}EventAttributes`];
}

/** The reference payloads under an event's attributes, each with the payload object itself (for `replacePayloads`). */
export function referencesIn(
  eventId: number,
  eventType: string,
  attributes: Record<string, unknown>,
): { reference: PayloadReference; payload: unknown }[] {
  const found: { reference: PayloadReference; payload: unknown }[] = [];
  eachPayload(attributes, (payload, field, index) => {
    if (!isReferencePayload(payload)) return;
    const read = readReference(payload);
    const activity = isRecord(attributes.activityType) ? toText(attributes.activityType.name) : undefined;
    const reference: PayloadReference = {
      eventId,
      eventType,
      field,
      index,
      place: placeOf(eventType, field),
      ...(activity ? { activityType: activity } : {}),
      ...read,
      key: read.problem ? '' : referenceKey(read),
      referenceBytes: payloadSize(payload),
    };
    found.push({ reference, payload });
  });
  return found;
}

/**
 * The references in one raw event, in any form the checks read (SDK objects, `fetchHistory()`
 * JSON, proto3 JSON); an activity result's activity is named by the caller, who knows its scheduled event.
 */
export function eventReferences(raw: unknown): PayloadReference[] {
  if (!isRecord(raw)) return [];
  const eventType = eventTypeName(raw.eventType);
  const eventId = toInt(raw.eventId);
  if (eventType === undefined || eventId === undefined) return [];
  const attributes = attributesOf(raw, eventType);
  return isRecord(attributes) ? referencesIn(eventId, eventType, attributes).map((found) => found.reference) : [];
}

/** The events of a history given whole: SDK objects, their JSON (as text, bytes or parsed), the API's wrapper or a bare array. */
function eventsOf(input: unknown, source: string): unknown[] {
  let value = input;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    try {
      value = JSON.parse(typeof input === 'string' ? input : Buffer.from(input).toString('utf8'));
    } catch (error) {
      throw new HistoryLoadError(source, `not valid JSON (${(error as Error).message})`);
    }
  }
  if (Array.isArray(value)) return value;
  if (isRecord(value) && Array.isArray(value.events)) return value.events;
  if (isRecord(value) && isRecord(value.history) && Array.isArray(value.history.events)) return value.history.events;
  throw new HistoryLoadError(source, 'not a history: expected an object with an "events" array, or an array of events');
}

/** Collects references event by event, naming each activity result's activity from its scheduled event. */
class ReferenceCollector {
  private readonly found: { reference: PayloadReference; scheduledEventId?: number }[] = [];
  private readonly scheduled = new Map<number, string>();

  add(raw: unknown): void {
    for (const reference of eventReferences(raw)) {
      if (reference.eventType === 'ActivityTaskScheduled' && reference.activityType)
        this.scheduled.set(reference.eventId, reference.activityType);
      const attributes = isRecord(raw) ? attributesOf(raw, reference.eventType) : undefined;
      const scheduledEventId = isRecord(attributes) ? toInt(attributes.scheduledEventId) : undefined;
      this.found.push({ reference, ...(scheduledEventId !== undefined ? { scheduledEventId } : {}) });
    }
    // An activity whose input is inline still names the results that refer to it.
    const type = isRecord(raw) ? eventTypeName(raw.eventType) : undefined;
    const attributes = isRecord(raw) && type === 'ActivityTaskScheduled' ? attributesOf(raw, type) : undefined;
    const name = isRecord(attributes) && isRecord(attributes.activityType) ? toText(attributes.activityType.name) : undefined;
    const id = isRecord(raw) ? toInt(raw.eventId) : undefined;
    if (name && id !== undefined) this.scheduled.set(id, name);
  }

  /** In event order, whatever order the history came in (newest first, results before their scheduled events). */
  finish(): PayloadReference[] {
    return this.found
      .map(({ reference, scheduledEventId }) => {
        const activityType = scheduledEventId === undefined ? undefined : this.scheduled.get(scheduledEventId);
        return activityType && !reference.activityType ? { ...reference, activityType } : reference;
      })
      .sort((a, b) => a.eventId - b.eventId || a.field.localeCompare(b.field) || a.index - b.index);
  }
}

/** Every reference payload of a history given whole, in event order. */
export function listReferences(input: unknown, source = 'history'): PayloadReference[] {
  const collector = new ReferenceCollector();
  for (const event of eventsOf(input, source)) collector.add(event);
  return collector.finish();
}

/** Every reference payload of a history file (JSON, gzipped when it ends in `.gz`), streamed, in event order. */
export async function listReferencesInFile(path: string): Promise<PayloadReference[]> {
  const collector = new ReferenceCollector();
  try {
    for await (const event of streamHistoryEvents(path)) collector.add(event);
  } catch (error) {
    if (error instanceof HistoryFileShapeError) throw new HistoryLoadError(path, `not a history: ${error.message}`);
    throw error;
  }
  return collector.finish();
}

/** The stored payload of a reference, or why there is none. */
export function lookUp(
  stored: StoredPayloads | undefined,
  reference: PayloadReference,
): StoredPayload | 'missing' | 'no-store' | 'unreadable' {
  if (reference.problem) return 'unreadable';
  if (!stored) return 'no-store';
  return stored.get(reference.key) ?? 'missing';
}
