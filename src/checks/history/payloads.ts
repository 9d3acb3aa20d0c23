/**
 * Payload sizes and contents. Sizes are the serialized protobuf size of the Payloads (or Payload)
 * field, which is what Temporal's `limit.blobSize.error` judges; contents are decoded only for
 * `json/plain` (and `binary/null`) payloads, and only when a check needs them.
 */
import type { PayloadField } from './model.ts';
import { bytesLength, isRecord, toBuffer } from './proto-values.ts';

function varintLength(n: number): number {
  let length = 1;
  for (let rest = Math.floor(n / 128); rest > 0; rest = Math.floor(rest / 128)) length++;
  return length;
}

/** Size of a length-delimited field (tag byte, length varint, body). */
function fieldLength(body: number): number {
  return 1 + varintLength(body) + body;
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
  return size;
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
 * Every payload-carrying field under an event's attributes, with its size. Walks the attribute
 * tree (small) and stops at each Payloads or Payload (large), so it costs nothing per payload byte.
 */
export function payloadFields(attributes: Record<string, unknown>): PayloadField[] {
  const found: PayloadField[] = [];
  // Only objects can hold payloads: a scalar (most of an event's values) costs no call and no field name.
  const walk = (value: object, field: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (typeof item === 'object' && item !== null) walk(item, `${field}[${index}]`);
      });
      return;
    }
    if (!isRecord(value)) return;
    if (isPayloads(value)) {
      found.push({ field, bytes: payloadsSize(value.payloads as unknown[]) });
      return;
    }
    if (isPayload(value)) {
      found.push({ field, bytes: payloadSize(value) });
      return;
    }
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (typeof item === 'object' && item !== null) walk(item, field === '' ? key : `${field}.${key}`);
    }
  };
  walk(attributes, '');
  return found;
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
