import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import proto from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { jsonPayload, jsonPayloads } from '../testing/history-builder.ts';
import {
  decodePayload,
  decodePayloads,
  eachPayload,
  isShorthandPayloads,
  jsonPlainBytes,
  payloadFields,
  payloadList,
  payloadSize,
  payloadsSize,
  REFERENCE_MESSAGE_TYPE,
  replacePayloads,
} from './payloads.ts';

const { Payload, Payloads } = proto.temporal.api.common.v1;

describe('payload sizes', () => {
  it.each([0, 1, 127, 128, 16_383, 16_384, 2_097_152])('equal the protobuf encoding of Payloads (%i data bytes)', (size) => {
    const json = jsonPayloads('x'.repeat(size), { small: true });
    const sdk = historyFromJSON({
      events: [
        { eventId: '1', eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED', workflowExecutionStartedEventAttributes: { input: json } },
      ],
    }).events?.[0]?.workflowExecutionStartedEventAttributes?.input;
    const encoded = Payloads.encode(Payloads.create(sdk ?? {})).finish().length;
    expect(payloadsSize((json as { payloads: unknown[] }).payloads)).toBe(encoded);
    expect(payloadsSize(sdk?.payloads ?? [])).toBe(encoded);
  });

  it('are found under every field of an event, maps and failures included', () => {
    const fields = payloadFields({
      input: jsonPayloads(1),
      header: { fields: { trace: { metadata: { encoding: 'anNvbi9wbGFpbg==' }, data: 'MQ==' } } },
      details: { 'patch-data': jsonPayloads({ id: 'x' }) },
      failure: { message: 'm', cause: { applicationFailureInfo: { details: jsonPayloads('why') } } },
    });
    expect(fields.map((f) => f.field)).toEqual([
      'input',
      'header.fields.trace',
      'details.patch-data',
      'failure.cause.applicationFailureInfo.details',
    ]);
  });

  it('decode json/plain and refuse other encodings in one line', () => {
    expect(decodePayloads(jsonPayloads({ a: 1 }, null))).toEqual([{ a: 1 }, null]);
    const binary = { payloads: [{ metadata: { encoding: Buffer.from('binary/plain').toString('base64') }, data: 'AAE=' }] };
    expect(() => decodePayloads(binary)).toThrow('payload encoding is binary/plain, not json/plain');
  });
});

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('a payload', () => {
  it.each([
    [
      [{ sizeBytes: 300 }, {}],
      [{ sizeBytes: 300 }, {}],
    ],
    [
      [{ size_bytes: '1' }, { sizeBytes: 127 }, { sizeBytes: 128 }, { sizeBytes: 2_097_152 }],
      [{ sizeBytes: 1 }, { sizeBytes: 127 }, { sizeBytes: 128 }, { sizeBytes: 2_097_152 }],
    ],
    [
      [{ sizeBytes: { low: 5, high: 0 } }, 'not a detail', { sizeBytes: 0 }],
      [{ sizeBytes: 5 }, {}, {}],
    ],
  ])('is sized as its protobuf, its External Storage details included (%j)', (details, asProto) => {
    const payload = { metadata: { encoding: b64('json/plain') }, data: b64('x'.repeat(200)), externalPayloads: details };
    const encoded = Payload.encode(
      Payload.create({
        metadata: { encoding: Buffer.from('json/plain') },
        data: Buffer.from('x'.repeat(200)),
        externalPayloads: asProto as proto.temporal.api.common.v1.IPayload['externalPayloads'],
      }),
    ).finish().length;
    expect(payloadSize(payload)).toBe(encoded);
    const { externalPayloads, ...snake } = payload;
    expect(payloadSize({ ...snake, external_payloads: externalPayloads })).toBe(encoded);
  });

  it('without data, or not an object, is as small as its protobuf', () => {
    expect(payloadSize({ metadata: { encoding: b64('binary/null') }, data: '' })).toBe(
      Payload.encode(Payload.create({ metadata: { encoding: Buffer.from('binary/null') } })).finish().length,
    );
    expect(payloadSize({ data: b64('ab') })).toBe(Payload.encode(Payload.create({ data: Buffer.from('ab') })).finish().length);
    expect(payloadSize('AAE=')).toBe(0);
    expect(payloadSize(null)).toBe(0);
    expect(payloadSize({ metadata: {}, externalPayloads: 'none' })).toBe(0);
  });

  it.each([
    [{ metadata: { encoding: b64('binary/null') } }, null],
    [{ metadata: { encoding: b64('json/plain') }, data: b64('"a"') }, 'a'],
  ])('decodes json/plain and binary/null (%j)', (payload, value) => {
    expect(decodePayload(payload)).toEqual(value);
  });

  it.each([
    ['AAE=', 'not a payload'],
    [{ metadata: {}, data: b64('1') }, 'payload encoding is missing, not json/plain'],
    [{ data: b64('1') }, 'payload encoding is missing, not json/plain'],
    [{ metadata: { encoding: b64('json/plain') }, data: b64('{') }, /^json\/plain payload is not JSON \(.+\)$/],
    [
      { metadata: { encoding: b64('json/plain'), messageType: b64(REFERENCE_MESSAGE_TYPE) }, data: b64('{}') },
      'an External Storage reference whose stored payload the checks were not given',
    ],
  ])('refuses what it cannot decode in one line (%j)', (payload, reason) => {
    expect(() => decodePayload(payload)).toThrow(reason);
  });

  it("gives a json/plain payload's bytes, read by the reader given; nothing for another encoding", () => {
    const json = { metadata: { encoding: b64('json/plain') }, data: b64('[1]') };
    expect(jsonPlainBytes(json)?.toString()).toBe('[1]');
    expect(jsonPlainBytes(json, () => Buffer.from('[2]'))?.toString()).toBe('[2]');
    expect(jsonPlainBytes({ metadata: { encoding: b64('json/plain') } })?.length).toBe(0);
    expect(jsonPlainBytes({ metadata: { encoding: b64('binary/plain') }, data: b64('[1]') })).toBeUndefined();
    expect(jsonPlainBytes({ data: b64('[1]') })).toBeUndefined();
    expect(jsonPlainBytes(null)).toBeUndefined();
  });
});

describe('payload fields', () => {
  it('are found in lists, each with its index, and a metadata map without data or encoding is walked into', () => {
    const fields = payloadFields({
      markers: [{ details: jsonPayloads(1) }, 'text', null, { details: jsonPayloads(2, 3) }],
      header: { metadata: { other: b64('x') }, fields: { one: { metadata: { encoding: b64('binary/null') } } } },
      raw: { metadata: { messageType: b64('t') }, data: b64('x') },
    });
    expect(fields).toEqual([
      { field: 'markers[0].details', bytes: payloadsSize(jsonPayloads(1).payloads as unknown[]) },
      { field: 'markers[3].details', bytes: payloadsSize(jsonPayloads(2, 3).payloads as unknown[]) },
      { field: 'header.fields.one', bytes: payloadSize({ metadata: { encoding: b64('binary/null') } }) },
      { field: 'raw', bytes: payloadSize({ metadata: { messageType: b64('t') }, data: b64('x') }) },
    ]);
  });

  it('hand each payload over with its field and its index in the field', () => {
    const seen: [unknown, string, number][] = [];
    const single = { metadata: { encoding: b64('binary/null') } };
    const many = jsonPayloads('a', 'b');
    eachPayload({ input: many, header: { fields: { one: single } } }, (payload, field, index) => seen.push([payload, field, index]));
    expect(seen).toEqual([
      [(many.payloads as unknown[])[0], 'input', 0],
      [(many.payloads as unknown[])[1], 'input', 1],
      [single, 'header.fields.one', 0],
    ]);
  });

  it("are replaced along the paths that change only, the caller's objects untouched", () => {
    const kept = jsonPayloads('kept');
    const swapped = jsonPayloads('old', 'same');
    const single = jsonPayload('one');
    const bare = { payloads: [{ data: b64('bare') }] };
    const attributes = { input: swapped, other: { result: kept }, list: [{ details: single }, { n: 1 }, null], id: 'x', bare };
    const [old] = swapped.payloads as unknown[];
    const fresh = jsonPayload('new');
    const freshSingle = jsonPayload('two');
    const swaps = new Map<unknown, unknown>([
      [old, fresh],
      [single, freshSingle],
      [bare.payloads[0], fresh],
    ]);
    const replaced = replacePayloads(attributes, (payload) => swaps.get(payload));
    expect(replaced).not.toBe(attributes);
    expect(replaced.input).toEqual({ payloads: [fresh, (swapped.payloads as unknown[])[1]] });
    expect(replaced.other).toBe(attributes.other);
    expect(replaced.bare).toEqual({ payloads: [fresh] });
    expect(Array.isArray(replaced.list)).toBe(true);
    expect((replaced.list as unknown[])[0]).toEqual({ details: freshSingle });
    expect((replaced.list as unknown[])[1]).toBe(attributes.list[1]);
    expect(replaced.id).toBe('x');
    expect(attributes.input).toBe(swapped);
    expect((swapped.payloads as unknown[])[0]).toBe(old);
    expect(attributes.list[0]?.details).toBe(single);
    expect(replacePayloads(attributes, () => undefined)).toBe(attributes);
    expect(replacePayloads(attributes, (payload) => payload)).toBe(attributes);
  });

  it('read a Payloads field, or nothing, and tell shorthand values from payloads', () => {
    expect(payloadList(jsonPayloads(1, 2))).toHaveLength(2);
    expect(payloadList({ payloads: 'x' })).toEqual([]);
    expect(payloadList(undefined)).toEqual([]);
    expect(isShorthandPayloads([1, 'a'])).toBe(true);
    expect(isShorthandPayloads(jsonPayloads(1))).toBe(false);
  });
});
