/**
 * Reads scalar proto values in any of the forms a history arrives in: SDK objects (Long, enum
 * numbers, Uint8Array, Timestamp objects), `JSON.stringify` of them (strings, `{seconds, nanos}`,
 * base64) and proto3 JSON (strings, RFC 3339 times, base64).
 */
import proto from '@temporalio/proto';

const enums = proto.temporal.api.enums.v1;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !(value instanceof Uint8Array);
}

/** int64 as a Long, a decimal string, a number or a bigint; undefined when absent or not an integer. */
export function toInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') return /^-?\d+$/.test(value) ? Number(value) : undefined;
  if (isRecord(value) && typeof value.low === 'number' && typeof value.high === 'number') {
    return value.high * 2 ** 32 + (value.low >>> 0);
  }
  return undefined;
}

/** A Timestamp as an ISO string. */
export function toIsoTime(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const time = new Date(value);
    return Number.isNaN(time.getTime()) ? value : time.toISOString();
  }
  if (value instanceof Date) return value.toISOString();
  if (isRecord(value)) {
    const seconds = toInt(value.seconds) ?? 0;
    const nanos = typeof value.nanos === 'number' ? value.nanos : 0;
    return new Date(seconds * 1000 + Math.floor(nanos / 1e6)).toISOString();
  }
  return undefined;
}

/** A Duration ("30s", "0.250s", `{ seconds, nanos }`) in milliseconds; undefined when absent or unreadable. */
export function toDurationMs(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const match = /^(\d+(?:\.\d+)?)s$/.exec(value);
    return match ? Math.round(Number(match[1]) * 1000) : undefined;
  }
  if (isRecord(value)) {
    const seconds = toInt(value.seconds) ?? 0;
    const nanos = typeof value.nanos === 'number' ? value.nanos : 0;
    return seconds * 1000 + Math.round(nanos / 1e6);
  }
  return undefined;
}

/** "EVENT_TYPE_ACTIVITY_TASK_SCHEDULED", "ActivityTaskScheduled" or 10 -> "ActivityTaskScheduled". */
export function eventTypeName(value: unknown): string | undefined {
  const constant = enumConstant(value, enums.EventType, 'EVENT_TYPE_');
  return constant === undefined ? undefined : pascalCase(constant);
}

/** A WorkflowTaskFailedCause as its short constant, e.g. "PAYLOADS_TOO_LARGE". */
export function workflowTaskFailedCause(value: unknown): string {
  return enumConstant(value, enums.WorkflowTaskFailedCause, 'WORKFLOW_TASK_FAILED_CAUSE_') ?? 'UNSPECIFIED';
}

/** Who started an execution that continues another: "WORKFLOW" (ContinueAsNew), "RETRY", "CRON_SCHEDULE". */
export function continueAsNewInitiator(value: unknown): string {
  return enumConstant(value, enums.ContinueAsNewInitiator, 'CONTINUE_AS_NEW_INITIATOR_') ?? 'UNSPECIFIED';
}

/** The constant name without its prefix, whatever form the enum value came in; undefined when unknown. */
function enumConstant(value: unknown, values: Record<string | number, string | number>, prefix: string): string | undefined {
  let name: unknown = value;
  if (typeof value === 'number') name = values[value];
  // Older tools wrote enums in PascalCase ("WorkflowExecutionStarted").
  else if (typeof value === 'string' && /^[A-Z][a-z][A-Za-z]*$/.test(value)) {
    name = `${prefix}${value.replace(/(?<!^)([A-Z])/g, '_$1').toUpperCase()}`;
  }
  if (typeof name !== 'string' || typeof values[name] !== 'number') return undefined;
  return name.slice(prefix.length);
}

function pascalCase(constant: string): string {
  return constant
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** Byte length of a bytes field (Uint8Array, or base64 text) without decoding it. */
export function bytesLength(value: unknown): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === 'string') return Buffer.byteLength(value, 'base64');
  return 0;
}

/** A bytes field as a Buffer (a view, not a copy, for Uint8Array). */
export function toBuffer(value: unknown): Buffer | undefined {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'string') return Buffer.from(value, 'base64');
  return undefined;
}

/** A short text field (a name, an id). */
export function toText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
