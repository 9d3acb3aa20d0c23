import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import proto from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { jsonPayloads } from '../testing/history-builder.ts';
import { decodePayloads, payloadFields, payloadsSize } from './payloads.ts';

const { Payloads } = proto.temporal.api.common.v1;

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
