import proto from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { Base64Text } from './base64-text.ts';
import {
  bytesLength,
  continueAsNewInitiator,
  eventTypeName,
  isRecord,
  toBuffer,
  toDurationMs,
  toInt,
  toIsoTime,
  toText,
  workflowTaskFailedCause,
} from './proto-values.ts';

const enums = proto.temporal.api.enums.v1;
const base64 = (text: string) => new Base64Text(Buffer.from(text, 'latin1'));

describe('scalar proto values in every form a history arrives in', () => {
  it('tells a message from bytes and from nothing', () => {
    expect(isRecord({ seconds: '1' })).toBe(true);
    expect(isRecord([])).toBe(true);
    for (const other of [null, undefined, 'x', 1, new Uint8Array(2), Buffer.from('ab'), base64('QQ==')]) {
      expect(isRecord(other)).toBe(false);
    }
  });

  it('reads an int64 as a Long, a decimal string, a number or a bigint', () => {
    expect(toInt(42)).toBe(42);
    expect(toInt(-3)).toBe(-3);
    expect(toInt(1.5)).toBeUndefined();
    expect(toInt(42n)).toBe(42);
    expect(toInt('1234567890123')).toBe(1234567890123);
    expect(toInt('-7')).toBe(-7);
    for (const bad of ['', '1.5', '12a', 'a12', '- 1', ' 1', '1e3', undefined, null, true]) expect(toInt(bad), String(bad)).toBeUndefined();
    // protobufjs Long: low is signed 32-bit, high the upper word.
    expect(toInt({ low: 5, high: 0, unsigned: false })).toBe(5);
    expect(toInt({ low: -1, high: 0 })).toBe(2 ** 32 - 1);
    expect(toInt({ low: 3, high: 2 })).toBe(2 * 2 ** 32 + 3);
    expect(toInt({ low: 3 })).toBeUndefined();
    expect(toInt({ high: 3 })).toBeUndefined();
    expect(toInt({ low: '3', high: 0 })).toBeUndefined();
    expect(toInt({ low: 3, high: '0' })).toBeUndefined();
  });

  it('reads a Timestamp as an ISO time: RFC 3339 text, a Date, seconds and nanos', () => {
    expect(toIsoTime('2026-12-03T19:44:23.827118Z')).toBe('2026-12-03T19:44:23.827Z');
    expect(toIsoTime('2026-12-03T20:44:23+01:00')).toBe('2026-12-03T19:44:23.000Z');
    expect(toIsoTime('not a time')).toBe('not a time');
    expect(toIsoTime(new Date(Date.UTC(2026, 11, 3)))).toBe('2026-12-03T00:00:00.000Z');
    expect(toIsoTime({ seconds: '1796500000', nanos: 827_999_999 })).toBe(new Date(1796500000827).toISOString());
    expect(toIsoTime({ seconds: { low: 1796500000, high: 0 }, nanos: 5_000_000 })).toBe(new Date(1796500000005).toISOString());
    expect(toIsoTime({ nanos: 2_000_000 })).toBe('1970-01-01T00:00:00.002Z');
    expect(toIsoTime({ seconds: 60, nanos: '5' })).toBe('1970-01-01T00:01:00.000Z');
    expect(toIsoTime({})).toBe('1970-01-01T00:00:00.000Z');
    for (const none of [undefined, null, 5, new Uint8Array(1)]) expect(toIsoTime(none)).toBeUndefined();
  });

  it('reads a Duration in milliseconds: "30s", "0.250s", seconds and nanos', () => {
    expect(toDurationMs('30s')).toBe(30_000);
    expect(toDurationMs('0.250s')).toBe(250);
    expect(toDurationMs('1.0005s')).toBe(1001);
    for (const bad of ['30', 's', '30ms', '-1s', '1.s', ' 30s', '30s ', '.5s']) expect(toDurationMs(bad), bad).toBeUndefined();
    expect(toDurationMs({ seconds: '30' })).toBe(30_000);
    expect(toDurationMs({ seconds: { low: 2, high: 0 }, nanos: 250_600_000 })).toBe(2251);
    expect(toDurationMs({ nanos: 1_400_000 })).toBe(1);
    expect(toDurationMs({ seconds: 1, nanos: '500000000' })).toBe(1000);
    for (const none of [undefined, null, 30, base64('QQ==')]) expect(toDurationMs(none)).toBeUndefined();
  });

  it('names an event type from its constant, its PascalCase name or its number, the same each time', () => {
    for (let round = 0; round < 2; round++) {
      expect(eventTypeName('EVENT_TYPE_WORKFLOW_EXECUTION_STARTED')).toBe('WorkflowExecutionStarted');
      expect(eventTypeName('WorkflowTaskCompleted')).toBe('WorkflowTaskCompleted');
      expect(eventTypeName(enums.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW)).toBe('WorkflowExecutionContinuedAsNew');
      expect(eventTypeName(enums.EventType.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_COMPLETED)).toBe(
        'NexusOperationCancelRequestCompleted',
      );
      expect(eventTypeName('EVENT_TYPE_UNSPECIFIED')).toBe('Unspecified');
      expect(eventTypeName('Bogus')).toBeUndefined();
    }
    // PascalCase only as a whole: a name with underscores, or a list holding a name, is none.
    const others = ['workflowTaskCompleted', 'WORKFLOW_TASK_COMPLETED', 'WTaskCompleted', 'Workflow_Task', 'Workflow_task_completed'];
    for (const bad of [...others, 'EVENT_TYPE_', '', {}, 10n, ['WorkflowTaskCompleted']]) {
      expect(eventTypeName(bad), String(bad)).toBeUndefined();
    }
  });

  it('reads a task failure cause and a continue-as-new initiator, UNSPECIFIED when unknown', () => {
    expect(workflowTaskFailedCause(enums.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR)).toBe(
      'NON_DETERMINISTIC_ERROR',
    );
    expect(workflowTaskFailedCause('GrpcMessageTooLarge')).toBe('GRPC_MESSAGE_TOO_LARGE');
    expect(workflowTaskFailedCause('NOT_A_CAUSE')).toBe('UNSPECIFIED');
    expect(continueAsNewInitiator('CONTINUE_AS_NEW_INITIATOR_WORKFLOW')).toBe('WORKFLOW');
    expect(continueAsNewInitiator('CronSchedule')).toBe('CRON_SCHEDULE');
    expect(continueAsNewInitiator(99)).toBe('UNSPECIFIED');
    expect(continueAsNewInitiator(null)).toBe('UNSPECIFIED');
  });

  it('measures a bytes field without decoding it, and decodes it on demand', () => {
    const bytes = Buffer.from('hello, world');
    // A field that starts inside a larger buffer, as a decoded message's bytes do.
    const whole = new Uint8Array(bytes.length + 4);
    whole.set(bytes, 2);
    const view = whole.subarray(2, 2 + bytes.length);
    const text = bytes.toString('base64');
    expect(bytesLength(view)).toBe(12);
    expect(bytesLength(text)).toBe(12);
    expect(bytesLength(base64(text))).toBe(12);
    expect(bytesLength(undefined)).toBe(0);
    expect(bytesLength(null)).toBe(0);
    expect(bytesLength(12)).toBe(0);
    expect(toBuffer(view)).toEqual(bytes);
    expect(toBuffer(text)).toEqual(bytes);
    expect(toBuffer(base64(text))).toEqual(bytes);
    expect(toBuffer(undefined)).toBeUndefined();
    expect(toBuffer({ data: text })).toBeUndefined();
  });

  it('gives a view of a Uint8Array, not a copy', () => {
    const bytes = new Uint8Array([1, 2, 3, 4]);
    const buffer = toBuffer(bytes.subarray(1, 3));
    expect(buffer).toEqual(Buffer.from([2, 3]));
    bytes[1] = 9;
    expect(buffer?.[0]).toBe(9);
  });

  it('reads a short text field only as text', () => {
    expect(toText('worker-1')).toBe('worker-1');
    expect(toText('')).toBe('');
    expect(toText(1)).toBeUndefined();
    expect(toText(null)).toBeUndefined();
  });
});
