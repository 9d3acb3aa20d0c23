import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryBuilder, type JsonObject, jsonPayload, jsonPayloads } from '../testing/history-builder.ts';
import { HistoryLoadError } from './errors.ts';
import {
  eventReferences,
  isReferencePayload,
  listReferences,
  listReferencesInFile,
  lookUp,
  type PayloadReference,
  REFERENCE_ENCODING,
  REFERENCE_MESSAGE_TYPE,
  readReference,
  referenceKey,
  referencesIn,
  type StoredPayload,
} from './external-storage.ts';
import { payloadSize } from './payloads.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const DRIVER = 'aws.s3driver';

/** A reference payload as the SDKs write it in a history's proto3 JSON. */
function reference(key: string, options: { sizeBytes?: unknown; data?: unknown; metadata?: JsonObject } = {}): JsonObject {
  return {
    metadata: options.metadata ?? { encoding: b64(REFERENCE_ENCODING), messageType: b64(REFERENCE_MESSAGE_TYPE) },
    data: options.data ?? b64(JSON.stringify({ driverName: DRIVER, claimData: { bucket: 'runs', key } })),
    externalPayloads: [{ sizeBytes: options.sizeBytes ?? '70000' }],
  };
}
const keyOf = (key: string) => referenceKey({ driverName: DRIVER, claimData: { bucket: 'runs', key } });

const FIXTURE = fileURLToPath(new URL('../testing/external-storage/offloaded-execution-1.json.gz', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'longrun-external-storage-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a reference payload', () => {
  it('is told by its message type and encoding, or by the mark of a codec that encoded it', () => {
    expect(isReferencePayload(reference('k'))).toBe(true);
    const bytes = { metadata: { encoding: Buffer.from(REFERENCE_ENCODING), messageType: Buffer.from(REFERENCE_MESSAGE_TYPE) } };
    expect(isReferencePayload(bytes)).toBe(true);
    expect(isReferencePayload({ metadata: { encoding: b64('binary/encrypted'), __temporal_external_storage_reference: b64('') } })).toBe(
      true,
    );
    expect(isReferencePayload({ metadata: { encoding: b64('json/plain'), messageType: b64(REFERENCE_MESSAGE_TYPE) } })).toBe(false);
    expect(isReferencePayload({ metadata: { encoding: b64(REFERENCE_ENCODING), messageType: b64('temporal.api.Other') } })).toBe(false);
    expect(isReferencePayload({ metadata: { encoding: b64(REFERENCE_ENCODING) } })).toBe(false);
    expect(isReferencePayload({ metadata: { messageType: b64(REFERENCE_MESSAGE_TYPE), encoding: null } })).toBe(false);
    expect(isReferencePayload({ data: b64('{}') })).toBe(false);
    // A metadata value that is not bytes (a hand-edited history) marks nothing, and is not thrown on.
    expect(isReferencePayload({ metadata: { encoding: 7, messageType: { text: REFERENCE_MESSAGE_TYPE } } })).toBe(false);
    expect(isReferencePayload(null)).toBe(false);
    expect(isReferencePayload('payload')).toBe(false);
  });

  it('reads its driver, claim and stated size, in either spelling of proto3 JSON and as a Long', () => {
    expect(readReference(reference('k'))).toEqual({ driverName: DRIVER, claimData: { bucket: 'runs', key: 'k' }, sizeBytes: 70_000 });
    const snake = {
      ...reference('k', { data: b64(JSON.stringify({ driver_name: 'gcs', claim_data: { object: 'o' } })) }),
      externalPayloads: undefined,
      external_payloads: [{ size_bytes: 5 }, { sizeBytes: { low: 7, high: 0 } }],
    };
    expect(readReference(snake)).toEqual({ driverName: 'gcs', claimData: { object: 'o' }, sizeBytes: 12 });
    const noClaim = reference('k', { data: b64(JSON.stringify({ driverName: 'local' })) });
    expect(readReference(noClaim)).toEqual({ driverName: 'local', claimData: {}, sizeBytes: 70_000 });
    const bytesData = { ...reference('k'), data: Buffer.from(JSON.stringify({ driverName: 'local', claimData: { a: 'b' } })) };
    expect(readReference(bytesData)).toMatchObject({ driverName: 'local', claimData: { a: 'b' } });
  });

  it('states no size without external payloads, and counts a detail without one as 0', () => {
    expect(readReference({ ...reference('k'), externalPayloads: [] })).not.toHaveProperty('sizeBytes');
    expect(readReference({ ...reference('k'), externalPayloads: undefined })).not.toHaveProperty('sizeBytes');
    expect(readReference({ ...reference('k'), externalPayloads: 'many' })).not.toHaveProperty('sizeBytes');
    expect(readReference({ ...reference('k'), externalPayloads: [null, {}, { sizeBytes: 'x' }, { sizeBytes: '9' }] }).sizeBytes).toBe(9);
    expect(readReference({ ...reference('k'), externalPayloads: [{}] }).sizeBytes).toBe(0);
  });

  it('names why it cannot be read, keeping the size it states', () => {
    const problem = (payload: JsonObject) => readReference(payload);
    const coded = { metadata: { encoding: b64('binary/encrypted'), __temporal_external_storage_reference: b64('') }, data: 'AAAA' };
    expect(problem(coded)).toEqual({
      driverName: '',
      claimData: {},
      problem: 'a reference encoded by a payload codec (binary/encrypted): unreadable without it',
    });
    expect(problem({ metadata: { __temporal_external_storage_reference: b64('') } }).problem).toBe(
      'a reference encoded by a payload codec (no encoding): unreadable without it',
    );
    expect(problem(reference('k', { data: b64('{"driverName":') }))).toMatchObject({
      driverName: '',
      claimData: {},
      sizeBytes: 70_000,
      problem: expect.stringMatching(/^its data is not JSON \(.+\)$/),
    });
    expect(problem({ ...reference('k'), data: undefined }).problem).toMatch(/^its data is not JSON \(/);
    expect(problem(reference('k', { data: b64('"key"') })).problem).toBe('its data is not a JSON object');
    // A list is an object to the reader: refused for the driver it lacks.
    expect(problem(reference('k', { data: b64('[1]') })).problem).toBe('no driverName');
    expect(problem(reference('k', { data: b64('null') })).problem).toBe('its data is not a JSON object');
    expect(problem(reference('k', { data: b64('{"claimData":{}}') })).problem).toBe('no driverName');
    expect(problem(reference('k', { data: b64('{"driverName":""}') })).problem).toBe('no driverName');
    expect(problem(reference('k', { data: b64('{"driverName":7}') })).problem).toBe('no driverName');
    expect(problem(reference('k', { data: b64('{"driverName":"s3","claimData":{"size":4}}') })).problem).toBe(
      'claimData is not a map of strings',
    );
    expect(problem(reference('k', { data: b64('{"driverName":"s3","claimData":"key"}') })).problem).toBe(
      'claimData is not a map of strings',
    );
    expect(problem(reference('k', { data: b64('{"driverName":"s3","claimData":{"a":"b","c":null}}') })).problem).toBe(
      'claimData is not a map of strings',
    );
  });

  it('is keyed by driver and claim, whatever the order of the claim', () => {
    expect(referenceKey({ driverName: 's3', claimData: { bucket: 'b', key: 'k' } })).toBe('["s3",[["bucket","b"],["key","k"]]]');
    expect(referenceKey({ driverName: 's3', claimData: { key: 'k', bucket: 'b' } })).toBe('["s3",[["bucket","b"],["key","k"]]]');
    expect(referenceKey({ driverName: 'gcs', claimData: {} })).toBe('["gcs",[]]');
  });
});

describe('the references of an event', () => {
  it('names each with its event, field, index, place, activity, key and sizes', () => {
    const payloads = { payloads: [jsonPayload(1), reference('a'), reference('b', { sizeBytes: 5 })] };
    const found = referencesIn(7, 'ActivityTaskScheduled', { activityType: { name: 'call_model' }, input: payloads });
    expect(found.map((f) => f.reference)).toEqual([
      {
        eventId: 7,
        eventType: 'ActivityTaskScheduled',
        field: 'input',
        index: 1,
        place: 'activity input',
        activityType: 'call_model',
        driverName: DRIVER,
        claimData: { bucket: 'runs', key: 'a' },
        sizeBytes: 70_000,
        key: keyOf('a'),
        referenceBytes: payloadSize(reference('a')),
      },
      {
        eventId: 7,
        eventType: 'ActivityTaskScheduled',
        field: 'input',
        index: 2,
        place: 'activity input',
        activityType: 'call_model',
        driverName: DRIVER,
        claimData: { bucket: 'runs', key: 'b' },
        sizeBytes: 5,
        key: keyOf('b'),
        referenceBytes: payloadSize(reference('b', { sizeBytes: 5 })),
      },
    ]);
    expect(found[1]?.payload).toBe(payloads.payloads[2]);
    const bad = referencesIn(3, 'WorkflowExecutionSignaled', { input: { payloads: [reference('k', { data: b64('null') })] } });
    expect(bad[0]?.reference).toMatchObject({ key: '', problem: 'its data is not a JSON object', place: 'signal input' });
    expect(bad[0]?.reference).not.toHaveProperty('activityType');
    expect(
      referencesIn(3, 'ActivityTaskScheduled', { activityType: { name: 7 }, input: { payloads: [reference('k')] } })[0]?.reference,
    ).not.toHaveProperty('activityType');
    expect(
      referencesIn(3, 'ActivityTaskScheduled', { activityType: { name: '' }, input: { payloads: [reference('k')] } })[0]?.reference,
    ).not.toHaveProperty('activityType');
    expect(
      referencesIn(3, 'ActivityTaskScheduled', { activityType: 'call_model', input: { payloads: [reference('k')] } })[0]?.reference,
    ).not.toHaveProperty('activityType');
    expect(referencesIn(3, 'WorkflowExecutionSignaled', { input: jsonPayloads({ big: false }) })).toEqual([]);
  });

  it('names the place of each field a reference can stand in', () => {
    const placeOf = (eventType: string, attributes: JsonObject) =>
      referencesIn(1, eventType, attributes).map((f) => [f.reference.field, f.reference.place]);
    const one = { payloads: [reference('k')] };
    expect(
      placeOf('WorkflowExecutionStarted', {
        input: one,
        lastCompletionResult: one,
        header: { fields: { trace: reference('t') } },
        memo: { fields: { note: reference('m') } },
      }),
    ).toEqual([
      ['input', 'workflow input'],
      ['lastCompletionResult', 'last completion result'],
      ['header.fields.trace', 'header'],
      ['memo.fields.note', 'memo'],
    ]);
    expect(placeOf('ContinueAsNewLike', { lastCompletionResult: one })).toEqual([
      ['lastCompletionResult', 'ContinueAsNewLike lastCompletionResult'],
    ]);
    expect(placeOf('WorkflowExecutionContinuedAsNew', { input: one, lastCompletionResult: one })).toEqual([
      ['input', 'continue-as-new input'],
      ['lastCompletionResult', 'continue-as-new input'],
    ]);
    expect(placeOf('ActivityTaskFailed', { failure: { applicationFailureInfo: { details: one } } })).toEqual([
      ['failure.applicationFailureInfo.details', 'failure details'],
    ]);
    expect(placeOf('ActivityTaskStarted', { lastFailure: { cause: { applicationFailureInfo: { details: one } } } })).toEqual([
      ['lastFailure.cause.applicationFailureInfo.details', 'failure details'],
    ]);
    expect(placeOf('MarkerRecorded', { details: { data: one } })).toEqual([['details.data', 'marker details']]);
    const places: [string, string][] = [
      ['WorkflowExecutionCompleted', 'workflow result'],
      ['ActivityTaskCompleted', 'activity result'],
      ['SignalExternalWorkflowExecutionInitiated', 'signal input'],
      ['WorkflowExecutionUpdateAdmitted', 'update input'],
      ['WorkflowExecutionUpdateAccepted', 'update input'],
      ['WorkflowExecutionUpdateCompleted', 'update result'],
      ['StartChildWorkflowExecutionInitiated', 'child workflow input'],
      ['ChildWorkflowExecutionCompleted', 'child workflow result'],
      ['WorkflowExecutionSignaled', 'signal input'],
      ['WorkflowExecutionCanceled', 'WorkflowExecutionCanceled details'],
    ];
    for (const [eventType, place] of places) {
      const field = eventType === 'WorkflowExecutionCanceled' ? 'details' : 'input';
      expect(placeOf(eventType, { [field]: one }), eventType).toEqual([[field, place]]);
    }
  });

  it('reads a raw event in proto3 JSON and as SDK objects, and nothing from what is not one', () => {
    const h = new HistoryBuilder('run-a');
    h.started({});
    h.activityScheduled('call_model', {});
    const event = h.events[1] as JsonObject;
    (event.activityTaskScheduledEventAttributes as JsonObject).input = { payloads: [reference('k')] };
    const expected = [
      expect.objectContaining({ eventId: 2, eventType: 'ActivityTaskScheduled', activityType: 'call_model', key: keyOf('k') }),
    ];
    expect(eventReferences(event)).toEqual(expected);
    const sdk = historyFromJSON({ events: h.events }).events?.[1];
    expect(eventReferences(sdk)).toEqual(eventReferences(event));
    expect(eventReferences(null)).toEqual([]);
    expect(eventReferences([event])).toEqual([]);
    expect(eventReferences({ ...event, eventId: undefined })).toEqual([]);
    expect(eventReferences({ ...event, eventType: 'EVENT_TYPE_NOT_ONE' })).toEqual([]);
    expect(eventReferences({ ...event, activityTaskScheduledEventAttributes: undefined })).toEqual([]);
    expect(
      eventReferences({ eventId: '2', eventType: 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED', activityTaskScheduledEventAttributes: {} }),
    ).toEqual([]);
  });
});

describe('the references of a history', () => {
  /** A run whose call_model input, tool result (its input inline) and ContinueAsNew input are offloaded. */
  function offloaded(): JsonObject[] {
    const h = new HistoryBuilder('run-a');
    h.started({});
    h.workflowTask();
    const call = h.activityScheduled('call_model', {});
    h.activityCompleted(call, {});
    const tool = h.activityScheduled('run_tool', {});
    h.activityCompleted(tool, {});
    const failed = h.activityScheduled('run_tool', {});
    h.activityFailed(failed, 'crashed', 'ToolError', ['x']);
    h.continuedAsNew('run-b', {});
    const attributes = (id: number) => Object.values(h.events[id - 1] as JsonObject).find((v) => typeof v === 'object') as JsonObject;
    attributes(5).input = { payloads: [reference('call-in')] };
    attributes(7).result = { payloads: [reference('call-out')] };
    attributes(10).result = { payloads: [reference('tool-out')] };
    (attributes(13).failure as JsonObject).applicationFailureInfo = { type: 'ToolError', details: { payloads: [reference('tool-fail')] } };
    attributes(14).input = { payloads: [reference('carry'), reference('carry-2')] };
    return h.events;
  }
  const summary = (refs: PayloadReference[]) => refs.map((r) => [r.eventId, r.field, r.index, r.activityType ?? null, r.claimData.key]);
  const expected = [
    [5, 'input', 0, 'call_model', 'call-in'],
    [7, 'result', 0, 'call_model', 'call-out'],
    [10, 'result', 0, 'run_tool', 'tool-out'],
    [13, 'failure.applicationFailureInfo.details', 0, 'run_tool', 'tool-fail'],
    [14, 'input', 0, null, 'carry'],
    [14, 'input', 1, null, 'carry-2'],
  ];

  it('lists them in event order, each activity result named by its scheduled event, in every form given whole', () => {
    const events = offloaded();
    expect(summary(listReferences({ events }))).toEqual(expected);
    expect(summary(listReferences({ history: { events } }))).toEqual(expected);
    expect(summary(listReferences(events))).toEqual(expected);
    expect(summary(listReferences([...events].reverse()))).toEqual(expected);
    expect(summary(listReferences(JSON.stringify({ events })))).toEqual(expected);
    expect(summary(listReferences(Buffer.from(JSON.stringify({ events }))))).toEqual(expected);
    expect(summary(listReferences(new TextEncoder().encode(JSON.stringify(events))))).toEqual(expected);
    expect(summary(listReferences(historyFromJSON({ events })))).toEqual(expected);
  });

  it('keeps the activity a reference names, and names none for a result of an unknown scheduled event', () => {
    const events = offloaded();
    // The tool result's scheduled event names another activity than a result could: the scheduled one wins.
    const scheduled = (events[4] as JsonObject).activityTaskScheduledEventAttributes as JsonObject;
    scheduled.activityType = { name: 'kernel.compact_context' };
    const refs = listReferences({ events });
    expect(refs[0]?.activityType).toBe('kernel.compact_context');
    expect(refs[1]?.activityType).toBe('kernel.compact_context');
    const orphan = events.filter((e) => e.eventId !== '8');
    expect(summary(listReferences({ events: orphan }))[2]).toEqual([10, 'result', 0, null, 'tool-out']);
    const unnamed = offloaded();
    ((unnamed[7] as JsonObject).activityTaskScheduledEventAttributes as JsonObject).activityType = {};
    expect(summary(listReferences({ events: unnamed }))[2]).toEqual([10, 'result', 0, null, 'tool-out']);
  });

  it('passes over an event of a type it does not know, and one that is not an object', () => {
    const events: unknown[] = offloaded();
    events.splice(2, 0, { eventId: '3', eventType: 'EVENT_TYPE_FROM_THE_FUTURE', fromTheFutureEventAttributes: {} });
    events.splice(3, 0, null);
    expect(summary(listReferences(events))).toEqual(expected);
  });

  it('names no activity for a reference outside an activity', () => {
    const refs = listReferences(offloaded());
    expect(refs[4]).toMatchObject({ eventType: 'WorkflowExecutionContinuedAsNew' });
    expect(refs[4]).not.toHaveProperty('activityType');
    expect(refs[5]).not.toHaveProperty('activityType');
  });

  it('refuses what is not a history, naming its source', () => {
    const refusal = (input: unknown, source?: string) => {
      try {
        listReferences(input, source);
      } catch (error) {
        expect(error).toBeInstanceOf(HistoryLoadError);
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    const notHistory = 'not a history: expected an object with an "events" array, or an array of events';
    expect(refusal('{"events":')).toMatch(/^history: not valid JSON \(.+\)$/);
    expect(refusal(Buffer.from('{'), 'run.json')).toMatch(/^run\.json: not valid JSON \(/);
    expect(refusal('{"events":{}}', 'run.json')).toBe(`run.json: ${notHistory}`);
    expect(refusal({ history: { events: 'x' } })).toBe(`history: ${notHistory}`);
    expect(refusal({ history: [] })).toBe(`history: ${notHistory}`);
    expect(refusal(null)).toBe(`history: ${notHistory}`);
    expect(refusal('42')).toBe(`history: ${notHistory}`);
  });

  it('lists the same from a file streamed, gzipped or not, as from the history given whole', async () => {
    const events = offloaded();
    const plain = join(dir, 'run.json');
    const gzipped = join(dir, 'run.json.gz');
    await writeFile(plain, JSON.stringify({ events }));
    await writeFile(gzipped, gzipSync(JSON.stringify({ events })));
    expect(await listReferencesInFile(plain)).toEqual(listReferences({ events }));
    expect(await listReferencesInFile(gzipped)).toEqual(listReferences({ events }));
    const recorded = await listReferencesInFile(FIXTURE);
    expect(recorded).toEqual(listReferences(gunzipSync(await import('node:fs').then((fs) => fs.readFileSync(FIXTURE)))));
    expect(recorded.length).toBeGreaterThan(3);
  });

  it('refuses a file that is not a history as one line naming the file, and passes other errors on', async () => {
    const bad = join(dir, 'scalar.json');
    await writeFile(bad, '42');
    const error = await listReferencesInFile(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HistoryLoadError);
    expect((error as Error).message).toMatch(new RegExp(`^${bad.replace(/[.]/g, '\\.')}: not a history: .+ \\(byte \\d+\\)$`));
    const missing = await listReferencesInFile(join(dir, 'absent.json')).catch((e: unknown) => e);
    expect(missing).not.toBeInstanceOf(HistoryLoadError);
    expect((missing as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});

describe('looking a reference up', () => {
  const stored: StoredPayload = jsonPayload({ turn: 1 }) as StoredPayload;

  it('gives the stored payload, or why there is none', () => {
    // Read inside the test: a throw while vitest collects the file fails no test, so StrykerJS counts no kill.
    const [found] = referencesIn(5, 'ActivityTaskScheduled', { input: { payloads: [reference('k')] } });
    const [bad] = referencesIn(5, 'ActivityTaskScheduled', { input: { payloads: [reference('k', { data: b64('null') })] } });
    const read = found?.reference as PayloadReference;
    expect(lookUp(new Map([[keyOf('k'), stored]]), read)).toBe(stored);
    expect(lookUp(new Map([[keyOf('k'), 'missing']]), read)).toBe('missing');
    expect(lookUp(new Map([[keyOf('other'), stored]]), read)).toBe('missing');
    expect(lookUp(new Map(), read)).toBe('missing');
    expect(lookUp(undefined, read)).toBe('no-store');
    expect(lookUp(new Map([['', stored]]), bad?.reference as PayloadReference)).toBe('unreadable');
    expect(lookUp(undefined, bad?.reference as PayloadReference)).toBe('unreadable');
  });
});
