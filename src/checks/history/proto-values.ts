/**
 * Reads scalar proto values in any of the forms a history arrives in: SDK objects (Long, enum
 * numbers, Uint8Array, Timestamp objects), `JSON.stringify` of them (strings, `{seconds, nanos}`,
 * base64) and proto3 JSON (strings, RFC 3339 times, base64).
 */
import { Base64Text } from './base64-text.ts';
import { CONTINUE_AS_NEW_INITIATORS, EVENT_TYPES, WORKFLOW_TASK_FAILED_CAUSES } from './proto-enums.ts';

/** An enum's constants by number, and the numbers of its prefixed names. */
interface EnumTable {
  prefix: string;
  names: readonly string[];
  known: ReadonlySet<string>;
}

function enumTable(prefix: string, names: readonly string[]): EnumTable {
  return { prefix, names, known: new Set(names.map((name) => `${prefix}${name}`)) };
}

const EVENT_TYPE = enumTable('EVENT_TYPE_', EVENT_TYPES);
const WORKFLOW_TASK_FAILED_CAUSE = enumTable('WORKFLOW_TASK_FAILED_CAUSE_', WORKFLOW_TASK_FAILED_CAUSES);
const CONTINUE_AS_NEW_INITIATOR = enumTable('CONTINUE_AS_NEW_INITIATOR_', CONTINUE_AS_NEW_INITIATORS);

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && !(value instanceof Base64Text);
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

/** Every event names its type: the names read so far, by the value that named them. */
const eventTypeNames = new Map<unknown, string>();

/** "EVENT_TYPE_ACTIVITY_TASK_SCHEDULED", "ActivityTaskScheduled" or 10 -> "ActivityTaskScheduled". */
export function eventTypeName(value: unknown): string | undefined {
  const known = eventTypeNames.get(value);
  if (known !== undefined) return known;
  const constant = enumConstant(value, EVENT_TYPE);
  if (constant === undefined) return undefined;
  const name = pascalCase(constant);
  eventTypeNames.set(value, name);
  return name;
}

/** A WorkflowTaskFailedCause as its short constant, e.g. "PAYLOADS_TOO_LARGE". */
export function workflowTaskFailedCause(value: unknown): string {
  return enumConstant(value, WORKFLOW_TASK_FAILED_CAUSE) ?? 'UNSPECIFIED';
}

/** Who started an execution that continues another: "WORKFLOW" (ContinueAsNew), "RETRY", "CRON_SCHEDULE". */
export function continueAsNewInitiator(value: unknown): string {
  return enumConstant(value, CONTINUE_AS_NEW_INITIATOR) ?? 'UNSPECIFIED';
}

/** The constant name without its prefix, whatever form the enum value came in; undefined when unknown. */
function enumConstant(value: unknown, { prefix, names, known }: EnumTable): string | undefined {
  let name: unknown = value;
  if (typeof value === 'number') name = Number.isInteger(value) && names[value] !== undefined ? `${prefix}${names[value]}` : undefined;
  // Older tools wrote enums in PascalCase ("WorkflowExecutionStarted").
  else if (typeof value === 'string' && /^[A-Z][a-z][A-Za-z]*$/.test(value)) {
    name = `${prefix}${value.replace(/(?<!^)([A-Z])/g, '_$1').toUpperCase()}`;
  }
  if (typeof name !== 'string' || !known.has(name)) return undefined;
  return name.slice(prefix.length);
}

function pascalCase(constant: string): string {
  return constant
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** Byte length of a bytes field (Uint8Array, base64 text, or a Base64Text the file stream cut out) without decoding it. */
export function bytesLength(value: unknown): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Base64Text) return value.byteLength();
  if (typeof value === 'string') return Buffer.byteLength(value, 'base64');
  return 0;
}

/** A bytes field as a Buffer (a view, not a copy, for Uint8Array). */
export function toBuffer(value: unknown): Buffer | undefined {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'string') return Buffer.from(value, 'base64');
  if (value instanceof Base64Text) return value.decode();
  return undefined;
}

/** A short text field (a name, an id). */
export function toText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
