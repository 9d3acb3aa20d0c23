/**
 * Payload sizes and contents. Sizes are the serialized protobuf size of the Payloads (or Payload)
 * field, which is what Temporal's `limit.blobSize.error` judges; contents are decoded only for
 * `json/plain` (and `binary/null`) payloads, and only when a check needs them.
 */
import type { PayloadField } from './model.ts';

/** The message type of an External Storage reference payload (external-storage.ts reads it). */
export const REFERENCE_MESSAGE_TYPE = 'temporal.api.sdk.v1.ExternalStorageReference';

import { bytesLength, isRecord, toBuffer, toInt } from './proto-values.ts';

function varintLength(n: number): number {
  let length = 1;
  for (let rest = Math.floor(n / 128); rest > 0; rest = Math.floor(rest / 128)) length++;
  return length;
}

/** Size of a length-delimited field (tag byte, length varint, body). */
function fieldLength(body: number): number {
  return 1 + varintLength(body) + body;
}

/** Size of `external_payloads` (External Storage: one `ExternalPayloadDetails { int64 size_bytes }` each). */
function externalPayloadsSize(details: unknown): number {
  if (!Array.isArray(details)) return 0;
  let size = 0;
  for (const detail of details) {
    const bytes = isRecord(detail) ? (toInt(detail.sizeBytes ?? detail.size_bytes) ?? 0) : 0;
    size += fieldLength(bytes > 0 ? 1 + varintLength(bytes) : 0);
  }
  return size;
}

export function payloadSize(payload: unknown): number {
  if (!isRecord(payload)) return 0;
  let size = 0;
  if (isRecord(payload.metadata)) {
    for (const [key, value] of Object.entries(payload.metadata)) {
      size += fieldLength(fieldLength(Buffer.byteLength(key)) + fieldLength(bytesLength(value)));
    }
  }
  const data = bytesLength(payload.data);
  if (data > 0) size += fieldLength(data);
  return size + externalPayloadsSize(payload.externalPayloads ?? payload.external_payloads);
}

export function payloadsSize(payloads: readonly unknown[]): number {
  let size = 0;
  for (const payload of payloads) size += fieldLength(payloadSize(payload));
  return size;
}

function isPayloads(value: Record<string, unknown>): boolean {
  return Array.isArray(value.payloads);
}

function isPayload(value: Record<string, unknown>): boolean {
  return isRecord(value.metadata) && ('data' in value || 'encoding' in value.metadata);
}

/** Shorthand payloads (`temporal` CLI with JSON shorthand) carry values, not bytes: refused. */
export function isShorthandPayloads(value: unknown): boolean {
  return Array.isArray(value);
}

/**
 * Walks the attribute tree (small) to each Payloads or Payload field (large) and hands it to
 * `visit` with its path, so it costs nothing per payload byte.
 */
function eachPayloadField(
  attributes: Record<string, unknown>,
  visit: (value: Record<string, unknown>, field: string, many: boolean) => void,
): void {
  // Only objects can hold payloads: a scalar (most of an event's values) costs no call and no field name.
  const walk = (value: object, field: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (typeof item === 'object' && item !== null) walk(item, `${field}[${index}]`);
      });
      return;
    }
    if (!isRecord(value)) return;
    if (isPayloads(value) || isPayload(value)) {
      visit(value, field, isPayloads(value));
      return;
    }
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (typeof item === 'object' && item !== null) walk(item, field === '' ? key : `${field}.${key}`);
    }
  };
  walk(attributes, '');
}

/** Every payload-carrying field under an event's attributes, with its size. */
export function payloadFields(attributes: Record<string, unknown>): PayloadField[] {
  const found: PayloadField[] = [];
  eachPayloadField(attributes, (value, field, many) => {
    found.push({ field, bytes: many ? payloadsSize(value.payloads as unknown[]) : payloadSize(value) });
  });
  return found;
}

/** Every payload under an event's attributes, with its field's path and its index in the field (0 for a single Payload). */
export function eachPayload(attributes: Record<string, unknown>, visit: (payload: unknown, field: string, index: number) => void): void {
  eachPayloadField(attributes, (value, field, many) => {
    if (!many) visit(value, field, 0);
    else
      (value.payloads as unknown[]).forEach((payload, index) => {
        visit(payload, field, index);
      });
  });
}

/**
 * The attributes with each payload `replace` gives another for put in its place, copied along
 * the paths that change (the caller's objects are not touched); the same object when none does.
 */
export function replacePayloads(attributes: Record<string, unknown>, replace: (payload: unknown) => unknown): Record<string, unknown> {
  const swap = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      const items = value.map(swap);
      return items.some((item, index) => item !== value[index]) ? items : value;
    }
    if (!isRecord(value)) return value;
    if (isPayloads(value)) {
      const payloads = (value.payloads as unknown[]).map((payload) => replace(payload) ?? payload);
      return payloads.some((payload, index) => payload !== (value.payloads as unknown[])[index]) ? { ...value, payloads } : value;
    }
    if (isPayload(value)) return replace(value) ?? value;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (typeof item !== 'object' || item === null) continue;
      const swapped = swap(item);
      if (swapped !== item) {
        copy ??= { ...value };
        copy[key] = swapped;
      }
    }
    return copy ?? value;
  };
  return swap(attributes) as Record<string, unknown>;
}

/** The payloads of a Payloads field, or an empty list. */
export function payloadList(value: unknown): unknown[] {
  return isRecord(value) && Array.isArray(value.payloads) ? value.payloads : [];
}

function encodingOf(payload: Record<string, unknown>): string | undefined {
  const raw = isRecord(payload.metadata) ? toBuffer(payload.metadata.encoding) : undefined;
  return raw?.toString('utf8');
}

/** The JSON bytes of a json/plain payload (its data read by `bytesOf`); undefined for anything else. */
export function jsonPlainBytes(payload: unknown, bytesOf: (data: unknown) => Buffer | undefined = toBuffer): Buffer | undefined {
  if (!isRecord(payload) || encodingOf(payload) !== 'json/plain') return undefined;
  return bytesOf(payload.data) ?? Buffer.alloc(0);
}

/** Decodes a json/plain (or binary/null) payload; throws a one-line reason otherwise. */
export function decodePayload(payload: unknown): unknown {
  if (!isRecord(payload)) throw new Error('not a payload');
  const encoding = encodingOf(payload);
  if (encoding === 'binary/null') return null;
  if (isRecord(payload.metadata) && toBuffer(payload.metadata.messageType)?.toString('utf8') === REFERENCE_MESSAGE_TYPE) {
    throw new Error('an External Storage reference whose stored payload the checks were not given');
  }
  if (encoding !== 'json/plain') throw new Error(`payload encoding is ${encoding ?? 'missing'}, not json/plain`);
  const data = jsonPlainBytes(payload) as Buffer;
  try {
    return JSON.parse(data.toString('utf8'));
  } catch (error) {
    throw new Error(`json/plain payload is not JSON (${(error as Error).message})`);
  }
}

/** Decodes every payload of a Payloads field (one value per argument). */
export function decodePayloads(value: unknown): unknown[] {
  return payloadList(value).map(decodePayload);
}
