/**
 * The checks read through External Storage references, on a real run: the v1 kernel on the
 * embedded server with the SDK's ExternalStorage offloading every payload over 16 KiB to an
 * in-memory driver, and its inline twin (same seed, same input) on a worker without it
 * (testing/record-external-storage.ts records both).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import proto from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { payloadSize } from './history/payloads.ts';
import {
  buildRunView,
  bytes,
  type CheckContext,
  checkRun,
  checkRunView,
  type InvariantResult,
  type LoadedHistory,
  listReferences,
  listReferencesInFile,
  loadHistory,
  loadHistoryFile,
  type PayloadReference,
  type RunVerdict,
  referenceKey,
  type StoredPayload,
  type StoredPayloads,
} from './index.ts';
import { type StoredObject, storedPayloadsOf } from './testing/memory-storage-driver.ts';
import { type Dialect, SdkHistory, payload as sdkPayload } from './testing/sdk-histories.ts';

/** The little of a recorded event these tests change. */
interface RawEvent {
  eventId: string;
  activityTaskScheduledEventAttributes: { input: { payloads: { data: string; externalPayloads: { sizeBytes: string }[] }[] } };
}
type RawHistory = { events: RawEvent[] };

const FIXTURE_DIR = fileURLToPath(new URL('./testing/external-storage/', import.meta.url));

const file = (name: string) => join(FIXTURE_DIR, name);
const text = (name: string) => gunzipSync(readFileSync(file(name))).toString('utf8');
const objects: StoredObject[] = JSON.parse(text('offloaded-stored.json.gz'));
const store: StoredPayloads = storedPayloadsOf(objects);
const offloadedJson = [text('offloaded-execution-1.json.gz'), text('offloaded-execution-2.json.gz')];
const inlineJson = [text('inline-execution-1.json.gz'), text('inline-execution-2.json.gz')];

function load(histories: readonly string[], storedPayloads?: StoredPayloads): LoadedHistory[] {
  return histories.map((json, i) => loadHistory(json, { source: `execution ${i + 1}`, ...(storedPayloads ? { storedPayloads } : {}) }));
}
/** The offloaded run with its last event (the completion) replaced by another closing event. */
function endedBy(eventType: string, attributes: Record<string, unknown>): string[] {
  const history = JSON.parse(offloadedJson[1] as string) as { events: Record<string, unknown>[] };
  const last = history.events.at(-1) as Record<string, unknown>;
  history.events[history.events.length - 1] = { eventId: last.eventId, eventTime: last.eventTime, eventType, ...attributes };
  return [offloadedJson[0] as string, JSON.stringify(history)];
}
const result = (results: readonly InvariantResult[], id: string) => results.find((r) => r.id === id) as InvariantResult;
const resultOf = (verdict: RunVerdict, id: string) => result(verdict.results, id);
const CONTENT_INVARIANTS = [
  'compaction.trigger',
  'compaction.card',
  'rebuild.contract',
  'journal.chain',
  'can.carry-over',
  'history.continue-as-new',
];

describe('finding references', () => {
  const fromJson = listReferences(offloadedJson[0] as string, 'execution 1');

  it('lists every reference of a recorded history: event, field, place, driver, claim, sizes', () => {
    expect(fromJson.length).toBeGreaterThan(3);
    const first = fromJson[0] as (typeof fromJson)[number];
    expect(first).toMatchObject({
      eventType: 'ActivityTaskScheduled',
      field: 'input',
      index: 0,
      place: 'activity input',
      activityType: 'call_model',
    });
    expect(first.driverName).toBe('longrun.memory');
    expect(first.claimData.key).toMatch(/^sha256\/[0-9a-f]{64}$/);
    expect(first.sizeBytes).toBeGreaterThan(16 * 1024);
    expect(first.referenceBytes).toBeLessThan(400);
    expect(fromJson.at(-1)).toMatchObject({ eventType: 'WorkflowExecutionContinuedAsNew', place: 'continue-as-new input' });
    // The second execution starts with the input the first continued with: the same object.
    const second = listReferences(offloadedJson[1] as string);
    expect(second[0]).toMatchObject({ eventId: 1, place: 'workflow input', key: fromJson.at(-1)?.key });
    // Every reference's object is in the recording's store, and the size it states is the stored payload's.
    for (const reference of [...fromJson, ...second]) {
      const stored = store.get(reference.key);
      expect(stored, reference.key).toBeTypeOf('object');
      expect(payloadSize(stored)).toBe(reference.sizeBytes);
    }
  });

  it('finds the same in every form the checks read: a file, parsed JSON newest first, SDK objects', async () => {
    expect(await listReferencesInFile(file('offloaded-execution-1.json.gz'))).toEqual(fromJson);
    const parsed = JSON.parse(offloadedJson[0] as string) as RawHistory;
    expect(listReferences({ history: { events: [...parsed.events].reverse() } })).toEqual(fromJson);
    const sdk = historyFromJSON(parsed);
    expect(listReferences(sdk)).toEqual(fromJson);
    expect(loadHistory(sdk, { source: 'execution 1' }).references?.map(({ resolution, read, storedBytes, ...r }) => r)).toEqual(fromJson);
  });

  it("measures a reference as the server does: the Payload's protobuf, its externalPayloads included", () => {
    const sdk = historyFromJSON(JSON.parse(offloadedJson[0] as string));
    const event = sdk.events?.find((e) => e.eventId?.toString() === String(fromJson[0]?.eventId));
    const payload = event?.activityTaskScheduledEventAttributes?.input?.payloads?.[0] as proto.temporal.api.common.v1.IPayload;
    expect(payload.externalPayloads?.length).toBe(1);
    expect(fromJson[0]?.referenceBytes).toBe(proto.temporal.api.common.v1.Payload.encode(payload).finish().length);
  });

  it('keys a reference by its driver and claim, whatever the order of the claim', () => {
    expect(referenceKey({ driverName: 's3', claimData: { bucket: 'b', key: 'k' } })).toBe(
      referenceKey({ driverName: 's3', claimData: { key: 'k', bucket: 'b' } }),
    );
    expect(referenceKey({ driverName: 's3', claimData: { key: 'k' } })).not.toBe(
      referenceKey({ driverName: 'gcs', claimData: { key: 'k' } }),
    );
  });
});

describe('judging an offloaded run', () => {
  const inline = checkRun(load(inlineJson));
  const resolved = checkRun(load(offloadedJson, store));

  it('judges it as its inline twin when the stored payloads are given', () => {
    expect(inline.status).toBe('pass');
    expect(resolved.status).toBe('pass');
    const statuses = (results: readonly InvariantResult[]) =>
      results.filter((r) => r.id !== 'payload.references-resolve').map((r) => [r.id, r.status]);
    expect(statuses(resolved.results)).toEqual(statuses(inline.results));
    for (const id of CONTENT_INVARIANTS) expect(result(resolved.results, id).status, id).toBe('pass');
    // The same reading of the conversation: the same turns, compactions and requests.
    const withoutIds = (r: InvariantResult) => r.evidence.map((line) => line.replace(/(execution \d+ )?event \d+/g, 'event N'));
    // Every invariant but the payloads' own says the same, bytes and counts alike, but for the events' ids.
    for (const { id } of inline.results.filter((r) => !r.id.startsWith('payload.'))) {
      expect(withoutIds(result(resolved.results, id)), id).toEqual(withoutIds(result(inline.results, id)));
    }
    expect(result(resolved.results, 'payload.references-resolve')).toMatchObject({ status: 'pass' });
    expect(result(resolved.results, 'payload.references-resolve').evidence[0]).toMatch(
      /^13 of 13 references resolve \([\d,]+ bytes stored; longrun.memory: 13\)$/,
    );
  });

  it('resolves the store the context gives when checkRun loads the histories, and a file streamed as text', async () => {
    const viaContext = checkRun(offloadedJson, { storedPayloads: store });
    expect(viaContext.results).toEqual(resolved.results);
    const files = await Promise.all(
      [1, 2].map((n) => loadHistoryFile(file(`offloaded-execution-${n}.json.gz`), { storedPayloads: store })),
    );
    expect(checkRun(files).results).toEqual(resolved.results);
    expect(files.map((h) => h.references)).toEqual(load(offloadedJson, store).map((h) => h.references));
  });

  it('is not applicable, with the reason, where no store is given: never a pass, never a false fail', () => {
    const verdict = checkRun(load(offloadedJson));
    expect(verdict.status).toBe('pass');
    const references = result(verdict.results, 'payload.references-resolve');
    expect(references.status).toBe('not-applicable');
    expect(references.evidence[0]).toBe('13 references (longrun.memory: 13) and no stored payloads given: not resolved');
    for (const id of CONTENT_INVARIANTS) {
      const r = result(verdict.results, id);
      expect(r.status, id).toBe('not-applicable');
      expect(r.evidence[0]).toMatch(
        /^not judged: 13 payloads it reads are offloaded to External Storage and not read \(13 with no stored payloads given\): execution 1 event \d+ activity input/,
      );
    }
    // Judged from the events alone, as ever.
    for (const id of ['payload.ceiling', 'wft.no-retry-loop', 'history.no-termination', 'can.clean-boundary']) {
      expect(result(verdict.results, id).status, id).toBe('pass');
    }
  });

  it('still judges whether the run ended by itself where no store is given', () => {
    expect(result(checkRun(load(offloadedJson)).results, 'run.liveness')).toMatchObject({
      status: 'pass',
      evidence: [expect.stringMatching(/: completed$/)],
    });
    const histories = endedBy('EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED', {
      workflowExecutionTerminatedEventAttributes: { reason: 'stuck', identity: 'operator' },
    });
    const terminated = result(checkRun(load(histories)).results, 'run.liveness');
    expect(terminated.status).toBe('fail');
    expect(terminated.evidence[0]).toMatch(/^execution 2 event \d+: terminated by "operator": "stuck" \(the run did not end by itself\)$/);
  });

  it("sets aside the guard's reason where the dialog it gave up on was not read", () => {
    const histories = endedBy('EVENT_TYPE_WORKFLOW_EXECUTION_FAILED', {
      workflowExecutionFailedEventAttributes: { failure: { message: 'too large', applicationFailureInfo: { type: 'PayloadGuard' } } },
    });
    // Read, the dialog is far under the blob limit: the guard's reason is false.
    expect(result(checkRun(load(histories, store)).results, 'run.liveness').status).toBe('fail');
    const unread = result(checkRun(load(histories)).results, 'run.liveness');
    expect(unread.status).toBe('pass');
    expect(unread.evidence[0]).toMatch(
      /failed with PayloadGuard, a reason the contract names \(whether it was true is not judged: payloads offloaded to External Storage were not read\)$/,
    );
  });

  it('catches a deleted stored object, naming the event, the field and the key', () => {
    const victim = listReferences(offloadedJson[0] as string)[2];
    const deleted = new Map(store);
    deleted.set(victim?.key as string, 'missing');
    const verdict = checkRun(load(offloadedJson, deleted));
    const references = result(verdict.results, 'payload.references-resolve');
    expect(references.status).toBe('fail');
    expect(references.evidence[0]).toBe(
      `execution 1 event ${victim?.eventId}: ActivityTaskScheduled call_model input[0] (activity input): stored payload missing (driver longrun.memory, key ${victim?.key})`,
    );
    // An object the caller did not fetch at all is missing too.
    const absent = new Map(store);
    absent.delete(victim?.key as string);
    expect(result(checkRun(load(offloadedJson, absent)).results, 'payload.references-resolve').evidence[0]).toBe(references.evidence[0]);
    // What reads the missing request cannot judge it: not applicable, not failed.
    expect(result(verdict.results, 'rebuild.contract')).toMatchObject({ status: 'not-applicable' });
    expect(result(verdict.results, 'rebuild.contract').evidence[0]).toMatch(
      /1 whose stored payload is missing \(payload.references-resolve names them\)/,
    );
  });

  it('fails a stored object that is not the one the reference wrote (another size)', () => {
    const victim = listReferences(offloadedJson[0] as string)[0];
    const swapped = new Map(store);
    const other = store.get(listReferences(offloadedJson[0] as string)[1]?.key as string);
    swapped.set(victim?.key as string, other as never);
    const references = result(checkRun(load(offloadedJson, swapped)).results, 'payload.references-resolve');
    expect(references.status).toBe('fail');
    expect(references.evidence[0]).toMatch(/: the stored payload is [\d,]+ bytes, the reference says [\d,]+ \(key /);
  });

  it('judges references against the context when the histories were loaded without a store', () => {
    const loaded = load(offloadedJson);
    const deleted = new Map(store);
    const victim = listReferences(offloadedJson[0] as string)[0];
    deleted.set(victim?.key as string, 'missing');
    const view = buildRunView(loaded);
    expect(result(checkRunView(view, { storedPayloads: store }).results, 'payload.references-resolve').status).toBe('pass');
    const failing = checkRunView(view, { storedPayloads: deleted });
    expect(result(failing.results, 'payload.references-resolve').status).toBe('fail');
    expect(result(failing.results, 'rebuild.contract').evidence[0]).toMatch(
      /loaded without the stored payloads given \(LoadOptions.storedPayloads\)/,
    );
  });

  it('is not applicable where nothing was offloaded', () => {
    expect(result(inline.results, 'payload.references-resolve')).toEqual({
      id: 'payload.references-resolve',
      status: 'not-applicable',
      evidence: ['nothing offloaded: no payload of the history is an External Storage reference'],
    });
  });
});

/** The history with the reference payload of event `eventId` given other data. */
function withReferenceData(json: string, eventId: number, data: string): string {
  const history = JSON.parse(json) as RawHistory;
  const event = history.events.find((e) => Number(e.eventId) === eventId) as RawEvent;
  (event.activityTaskScheduledEventAttributes.input.payloads[0] as { data: string }).data = Buffer.from(data).toString('base64');
  return JSON.stringify(history);
}

describe('a malformed reference', () => {
  const [first, second] = listReferences(offloadedJson[0] as string);

  it('fails payload.references-resolve, naming the event and what is wrong', () => {
    let broken = withReferenceData(offloadedJson[0] as string, first?.eventId as number, '{"driverName": "longrun.memory", ');
    broken = withReferenceData(broken, second?.eventId as number, '{"claimData": {"key": "k"}}');
    const listed = listReferences(broken);
    expect(listed[0]?.problem).toMatch(/^its data is not JSON \(/);
    expect(listed[1]?.problem).toBe('no driverName');
    for (const storedPayloads of [store, undefined]) {
      const verdict = checkRun(load([broken, offloadedJson[1] as string], storedPayloads));
      const references = result(verdict.results, 'payload.references-resolve');
      expect(references.status).toBe('fail');
      expect(references.evidence[0]).toMatch(
        new RegExp(
          `^execution 1 event ${first?.eventId}: ActivityTaskScheduled call_model input\\[0\\] \\(activity input\\): malformed External Storage reference: its data is not JSON \\(`,
        ),
      );
      expect(references.evidence[1]).toBe(
        `execution 1 event ${second?.eventId}: ActivityTaskScheduled call_model input[0] (activity input): malformed External Storage reference: no driverName`,
      );
      expect(result(verdict.results, 'rebuild.contract').status).toBe('not-applicable');
    }
  });
});

describe('payload.ceiling over offloaded payloads', () => {
  it('judges the blob limit on what the history carries, and names the bytes stored behind the references', () => {
    const limits: CheckContext = { limits: { blobLimitBytes: 20_000 } };
    // Inline, the same run's requests break a 20,000-byte limit; offloaded, the history carries references.
    expect(result(checkRun(load(inlineJson), limits).results, 'payload.ceiling').status).toBe('fail');
    const offloaded = result(checkRun(load(offloadedJson, store), limits).results, 'payload.ceiling');
    expect(offloaded.status).toBe('pass');
    expect(offloaded.evidence[1]).toMatch(
      /^13 payloads offloaded to External Storage: [\d,]+ bytes of references in the history, [\d,]+ bytes stored; largest stored execution \d event \d+: \S+ \S+ input\[0\] \(.+\) [\d,]+ bytes$/,
    );
    const [, inHistory, stored] =
      /: ([\d,]+) bytes of references in the history, ([\d,]+) bytes stored/.exec(offloaded.evidence[1] ?? '') ?? [];
    const total = objects.reduce((sum, o) => sum + payloadSize(storedPayloadsOf([o]).values().next().value), 0);
    // Execution 2's input is execution 1's ContinueAsNew input: one object, two references.
    expect(Number(stored?.replaceAll(',', ''))).toBeGreaterThan(total);
    expect(Number(inHistory?.replaceAll(',', ''))).toBeLessThan(13 * 400);
  });

  it('passes an offloaded 3 MiB request under the 2 MiB blob limit, and names a stored payload over the store limit', () => {
    const history = JSON.parse(offloadedJson[0] as string) as RawHistory;
    const first = listReferences(offloadedJson[0] as string)[0];
    const event = history.events.find((e) => Number(e.eventId) === first?.eventId) as RawEvent;
    (event.activityTaskScheduledEventAttributes.input.payloads[0]?.externalPayloads[0] as { sizeBytes: string }).sizeBytes = String(
      3 * 1024 * 1024,
    );
    const histories = [JSON.stringify(history), offloadedJson[1] as string];
    const ceiling = result(checkRun(load(histories)).results, 'payload.ceiling');
    expect(ceiling.status).toBe('pass');
    expect(ceiling.evidence[1]).toMatch(
      /largest stored execution 1 event \d+: ActivityTaskScheduled call_model input\[0\] \(activity input\) 3,145,728 bytes$/,
    );
    const overStore = result(checkRun(load(histories), { storedPayloadLimitBytes: 2 * 1024 * 1024 }).results, 'payload.ceiling');
    expect(overStore.status).toBe('fail');
    expect(overStore.evidence).toEqual([
      expect.stringMatching(
        /^execution 1 event \d+: ActivityTaskScheduled call_model input\[0\] \(activity input\): stored payload 3,145,728 bytes > the store's limit 2,097,152$/,
      ),
      expect.any(String),
      expect.stringMatching(/\(store limit 2,097,152\)$/),
    ]);
  });
});

describe('references from every SDK', () => {
  const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
  /** A payload of `bytes` JSON bytes, as a driver gives it back. */
  const storedJson = (bytes: number): StoredPayload => ({
    metadata: { encoding: Buffer.from('json/plain') },
    data: Buffer.from(`"${'x'.repeat(bytes - 2)}"`),
  });
  /** The S3 driver's reference to `stored`, its size written as the dialect writes int64. */
  const s3Reference = (key: string, stored: StoredPayload, int64: 'string' | 'number') => ({
    metadata: { encoding: base64('json/protobuf'), messageType: base64('temporal.api.sdk.v1.ExternalStorageReference') },
    data: base64(
      JSON.stringify({
        driverName: 'aws.s3driver',
        claimData: { bucket: 'agents', key, hashAlgorithm: 'sha256', hashValue: 'ab'.repeat(32) },
      }),
    ),
    externalPayloads: [{ sizeBytes: int64 === 'number' ? payloadSize(stored) : String(payloadSize(stored)) }],
  });
  const request = storedJson(3 * 1024 * 1024);
  const answer = storedJson(300_000);
  const DIALECTS: Record<string, Dialect> = {
    'Go (PascalCase enums, int64 numbers)': { enums: 'pascal', int64: 'number', nulls: false },
    '.NET (every field, null where unset)': { enums: 'pascal', int64: 'string', nulls: true },
    'Python and TypeScript (proto3 JSON)': { enums: 'constant', int64: 'string', nulls: false },
  };

  for (const [name, dialect] of Object.entries(DIALECTS)) {
    it(`reads the S3 driver's references in ${name}`, () => {
      const history = new SdkHistory(dialect, {
        workflowType: 'ResearchWorkflow',
        workflowId: 'research-1',
        runId: 'a1c2d3e4-0000-4000-8000-000000000001',
        taskQueue: 'research',
        input: [sdkPayload.json({ topic: 'claim checks' })],
      })
        .workflowTask()
        .activity(
          'Summarize',
          [s3Reference('v0/d/sha256/req', request, dialect.int64)],
          [s3Reference('v0/d/sha256/ans', answer, dialect.int64)],
        )
        .complete([sdkPayload.json('done')]);
      const listed = listReferences(history);
      expect(listed.map((r) => [r.place, r.activityType, r.driverName, r.claimData.key, r.sizeBytes])).toEqual([
        ['activity input', 'Summarize', 'aws.s3driver', 'v0/d/sha256/req', payloadSize(request)],
        ['activity result', 'Summarize', 'aws.s3driver', 'v0/d/sha256/ans', payloadSize(answer)],
      ]);
      const [input, result] = listed as [PayloadReference, PayloadReference];
      // An offloaded 3 MiB request is a reference of a few hundred bytes: under the 2 MiB blob limit.
      const alone = checkRun([history]);
      expect(resultOf(alone, 'payload.ceiling').status).toBe('pass');
      expect(resultOf(alone, 'payload.ceiling').evidence[1]).toMatch(
        /, 3,445,\d{3} bytes stored; largest stored event \d+: ActivityTaskScheduled Summarize input\[0\] \(activity input\) 3,145,7\d\d bytes$/,
      );
      expect(resultOf(alone, 'payload.references-resolve').status).toBe('not-applicable');
      const stored = new Map<string, StoredPayload | 'missing'>([
        [input.key, request],
        [result.key, answer],
      ]);
      expect(resultOf(checkRun([history], { storedPayloads: stored }), 'payload.references-resolve').status).toBe('pass');
      // Past the S3 driver's own default limit (50 MiB), named though the context gives none.
      const huge = { ...request, data: Buffer.alloc(0) } as StoredPayload;
      const over = new SdkHistory(dialect, {
        workflowType: 'ResearchWorkflow',
        workflowId: 'research-2',
        runId: 'a1c2d3e4-0000-4000-8000-000000000002',
        taskQueue: 'research',
        input: [sdkPayload.json({})],
      })
        .workflowTask()
        .activity(
          'Summarize',
          [{ ...s3Reference('v0/d/sha256/big', huge, dialect.int64), externalPayloads: [{ sizeBytes: 60 * 1024 * 1024 }] }],
          [],
        )
        .complete([]);
      expect(resultOf(checkRun([over]), 'payload.ceiling').evidence[0]).toMatch(
        /^event \d+: ActivityTaskScheduled Summarize input\[0\] \(activity input\): stored payload 62,914,560 bytes > the S3 driver's default limit 52,428,800$/,
      );
      stored.set(result.key, 'missing');
      expect(resultOf(checkRun([history], { storedPayloads: stored }), 'payload.references-resolve').evidence).toEqual([
        `event ${result.eventId}: ActivityTaskCompleted Summarize result[0] (activity result): stored payload missing (driver aws.s3driver, key ${result.key})`,
        `1 of 2 references resolve (${bytes(payloadSize(request))} bytes stored; aws.s3driver: 2)`,
      ]);
    });
  }
});

describe('where a reference stands', () => {
  const reference = (key: string) => ({
    metadata: {
      encoding: Buffer.from('json/protobuf').toString('base64'),
      messageType: Buffer.from('temporal.api.sdk.v1.ExternalStorageReference').toString('base64'),
    },
    data: Buffer.from(JSON.stringify({ driverName: 'aws.s3driver', claimData: { bucket: 'b', key } })).toString('base64'),
    externalPayloads: [{ sizeBytes: '400000' }],
  });

  it('names signals, updates, markers and failures apart', () => {
    const events = [
      {
        eventId: '5',
        eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED',
        workflowExecutionSignaledEventAttributes: { signalName: 'message', input: { payloads: [reference('signal')] } },
      },
      {
        eventId: '6',
        eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED',
        workflowExecutionUpdateAcceptedEventAttributes: {
          acceptedRequest: { input: { name: 'ask', args: { payloads: [{ metadata: {} }, reference('update')] } } },
        },
      },
      {
        eventId: '7',
        eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED',
        workflowExecutionUpdateCompletedEventAttributes: { outcome: { success: { payloads: [reference('answer')] } } },
      },
      {
        eventId: '8',
        eventType: 'EVENT_TYPE_MARKER_RECORDED',
        markerRecordedEventAttributes: { markerName: 'memo', details: { data: { payloads: [reference('marker')] } } },
      },
      {
        eventId: '9',
        eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_FAILED',
        workflowExecutionFailedEventAttributes: {
          failure: { message: 'x', applicationFailureInfo: { details: { payloads: [reference('failure')] } } },
        },
      },
    ];
    expect(listReferences(events).map((r) => [r.eventId, r.field, r.index, r.place, r.claimData.key, r.sizeBytes])).toEqual([
      [5, 'input', 0, 'signal input', 'signal', 400_000],
      [6, 'acceptedRequest.input.args', 1, 'update input', 'update', 400_000],
      [7, 'outcome.success', 0, 'update result', 'answer', 400_000],
      [8, 'details.data', 0, 'marker details', 'marker', 400_000],
      [9, 'failure.applicationFailureInfo.details', 0, 'failure details', 'failure', 400_000],
    ]);
  });
});
