import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64,
  describeRunRequest,
  encodeJsonPayload,
  isClosed,
  readRunStatus,
  readStartResponse,
  runInput,
  startRunRequest,
} from '../../scenarios/k6/lib/start-run.js';
import type { RunInput } from '../../src/contract/kernel-api.ts';

const decode = (text: string) => Buffer.from(text, 'base64').toString('utf8');

describe('the k6 request module (scenarios/k6/lib/start-run.js)', () => {
  it('encodes base64 of UTF-8 exactly as Node does, padding included', () => {
    expect(['', 'f', 'fo', 'foo', 'json/plain', 'é€😀'].map(base64)).toEqual(
      ['', 'f', 'fo', 'foo', 'json/plain', 'é€😀'].map((s) => Buffer.from(s).toString('base64')),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (s) => {
        expect(base64(s)).toBe(Buffer.from(s).toString('base64'));
      }),
    );
  });

  it('makes json/plain payloads whose data is the value as JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const payload = encodeJsonPayload(value);
        expect(decode(payload.metadata.encoding)).toBe('json/plain');
        expect(decode(payload.data)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('builds the kernel input the runner would send, limits only when given', () => {
    const input: RunInput = runInput({ runId: 'k6-x-run-000007', maxTurns: 12 });
    expect(input).toEqual({
      runId: 'k6-x-run-000007',
      systemPrompt: expect.any(String),
      userRequest: expect.stringContaining('k6-x-run-000007'),
      settings: { agent: { model: 'longrun-agent' }, compaction: { model: 'longrun-compactor' } },
      maxTurns: 12,
    });
    expect(runInput({ runId: 'r', limits: { tailMaxBytes: 16_384 } })).toMatchObject({ maxTurns: 200, limits: { tailMaxBytes: 16_384 } });
  });

  it('starts a run with a POST to the namespace and workflow, the input as one payload', () => {
    const input = runInput({ runId: 'run/1 ?' });
    const request = startRunRequest({
      baseUrl: 'http://temporal:7243/',
      namespace: 'soak ns',
      workflowId: 'run/1 ?',
      taskQueue: 'longrun-v1',
      input,
      executionTimeoutSeconds: 600,
    });
    expect(request.method).toBe('POST');
    expect(request.url).toBe('http://temporal:7243/api/v1/namespaces/soak%20ns/workflows/run%2F1%20%3F');
    expect(request.headers).toEqual({ 'content-type': 'application/json' });
    const body = JSON.parse(request.body ?? '');
    expect(body).toEqual({
      workflowType: { name: 'agentRun' },
      taskQueue: { name: 'longrun-v1' },
      input: { payloads: [encodeJsonPayload(input)] },
      identity: 'longrun k6',
      workflowExecutionTimeout: '600s',
    });
    expect(JSON.parse(decode(body.input.payloads[0].data))).toEqual(input);
    expect(describeRunRequest({ baseUrl: 'http://t:7243', workflowId: 'a' })).toEqual({
      method: 'GET',
      url: 'http://t:7243/api/v1/namespaces/default/workflows/a',
      headers: { accept: 'application/json' },
    });
  });

  it("reads the server's answers: started, already started, refused", () => {
    expect(readStartResponse(200, '{"runId":"01a2","started":true}')).toEqual({ started: true, runId: '01a2' });
    expect(readStartResponse(409, '{"code":6,"message":"Workflow execution is already running. WorkflowId: a."}')).toEqual({
      started: false,
      alreadyStarted: true,
      error: 'HTTP 409: Workflow execution is already running. WorkflowId: a.',
    });
    expect(readStartResponse(400, '{"code":3,"message":"temporalproto: syntax error\\nmore"}')).toEqual({
      started: false,
      error: 'HTTP 400: temporalproto: syntax error',
    });
    expect(readStartResponse(502, 'Bad Gateway')).toEqual({ started: false, error: 'HTTP 502: Bad Gateway' });
    expect(readStartResponse(200, '{}')).toMatchObject({ started: false });
  });

  it('reads the status of the latest execution, and when it is over', () => {
    const described = (status: string) => JSON.stringify({ workflowExecutionInfo: { status: `WORKFLOW_EXECUTION_STATUS_${status}` } });
    expect(readRunStatus(200, described('RUNNING'))).toEqual({ status: 'RUNNING' });
    expect(readRunStatus(200, described('COMPLETED'))).toEqual({ status: 'COMPLETED' });
    expect(readRunStatus(404, '{"code":5,"message":"workflow not found"}')).toEqual({ error: 'HTTP 404: workflow not found' });
    expect([isClosed('RUNNING'), isClosed(undefined), isClosed('COMPLETED'), isClosed('TERMINATED')]).toEqual([false, false, true, true]);
  });
});
