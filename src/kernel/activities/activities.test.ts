import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAILURE_TYPE } from '../../contract/failure-types.ts';
import { journalHash } from '../../contract/journal-hash.ts';
import { ACTIVITY, type CompactContextInput, GENESIS_HASH, type JournalEvent } from '../../contract/kernel-api.ts';
import type { ChatRequest, Message } from '../../contract/messages.ts';
import { MODEL_BASE_URL, SANDBOX_BASE_URL, scriptedWorld } from '../testing/scripted-world.ts';
import { compactionModel, createActivities, MAX_RETRY_AFTER_MS, retryAfterMs } from './index.ts';

const world = scriptedWorld({ turns: 3, toolBytes: 500, compaction: 'card' });
const server = setupServer(...world.handlers);
const activities = createActivities({ modelBaseUrl: MODEL_BASE_URL, sandboxBaseUrl: SANDBOX_BASE_URL, apiKey: 'k-1' });
// Failures are what most of these tests expect: keep the SDK's warnings about them out of the output.
const env = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });

/** Runs an activity in the mock environment, keeping its result type. */
function run<I, O>(activity: (input: I) => Promise<O>, input: I): Promise<O> {
  return env.run(activity, input);
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const request: ChatRequest = {
  model: 'agent-model',
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'fix it' },
  ],
  metadata: { longrun_run_id: 'run-1', longrun_turn: '1', longrun_purpose: 'agent' },
};

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ApplicationFailure)) throw new Error(`expected an ApplicationFailure, got ${String(error)}`);
  return error;
}

function answerModelWith(response: () => Response) {
  server.use(http.post(`${MODEL_BASE_URL}/chat/completions`, response));
}

describe('call_model', () => {
  it('posts the request as it is, with the API key, and keeps only the wire fields of the answer', async () => {
    let seen: { body: ChatRequest; authorization: string | null } | undefined;
    server.use(
      http.post(`${MODEL_BASE_URL}/chat/completions`, async ({ request: http }) => {
        seen = { body: (await http.json()) as ChatRequest, authorization: http.headers.get('authorization') };
        return HttpResponse.json({
          choices: [{ message: { role: 'assistant', content: 'hi', refusal: null, tool_calls: [] }, logprobs: null }],
          usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6, details: {} },
        });
      }),
    );
    const result = await run(activities[ACTIVITY.callModel], { runId: 'run-1', turn: 1, request });
    expect(seen).toEqual({ body: request, authorization: 'Bearer k-1' });
    expect(result).toEqual({
      message: { role: 'assistant', content: 'hi' },
      usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
    });
  });

  it('asks for a retry on 429 and 5xx, after Retry-After when the server gives one', async () => {
    answerModelWith(() => HttpResponse.json({ error: 'slow down' }, { status: 429, headers: { 'retry-after': '2' } }));
    const throttled = await failureOf(run(activities[ACTIVITY.callModel], { runId: 'r', turn: 1, request }));
    expect(throttled).toMatchObject({ type: FAILURE_TYPE.httpUnavailable, nonRetryable: false, nextRetryDelay: 2000 });
    answerModelWith(() => HttpResponse.json({ error: 'down' }, { status: 503 }));
    const down = await failureOf(run(activities[ACTIVITY.callModel], { runId: 'r', turn: 1, request }));
    expect(down).toMatchObject({ type: FAILURE_TYPE.httpUnavailable, nonRetryable: false, nextRetryDelay: undefined });
    answerModelWith(() => HttpResponse.json({ error: 'now' }, { status: 429, headers: { 'retry-after': '0' } }));
    const now = await failureOf(run(activities[ACTIVITY.callModel], { runId: 'r', turn: 1, request }));
    expect(now).toMatchObject({ type: FAILURE_TYPE.httpUnavailable, nonRetryable: false, nextRetryDelay: undefined });
  });

  it('does not retry any other 4xx', async () => {
    answerModelWith(() => HttpResponse.json({ error: 'bad request' }, { status: 400 }));
    const failure = await failureOf(run(activities[ACTIVITY.callModel], { runId: 'r', turn: 1, request }));
    expect(failure).toMatchObject({ type: FAILURE_TYPE.httpRejected, nonRetryable: true });
    expect(failure.message).toContain('model answered HTTP 400');
  });

  it('retries a body that is not JSON, or not a completion, and a dropped connection', async () => {
    answerModelWith(() => new HttpResponse('{"choices": [', { status: 200 }));
    expect(await failureOf(run(activities[ACTIVITY.callModel], { runId: 'r', turn: 1, request }))).toMatchObject({
      type: FAILURE_TYPE.malformedResponse,
      nonRetryable: false,
    });
    answerModelWith(() => HttpResponse.json({ choices: [] }));
    const empty = await failureOf(run(activities[ACTIVITY.callModel], { runId: 'r', turn: 1, request }));
    expect(empty.message).toBe('model answered an unexpected body: choices: Too small: expected array to have >=1 items');
    answerModelWith(() => HttpResponse.error());
    expect(await failureOf(run(activities[ACTIVITY.callModel], { runId: 'r', turn: 1, request }))).toMatchObject({
      type: FAILURE_TYPE.httpUnavailable,
      nonRetryable: false,
    });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and clamps them', () => {
    const now = Date.parse('2026-11-08T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('0.5', now)).toBe(500);
    expect(retryAfterMs('Sun, 08 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sun, 08 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('86400', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('kernel.compact_context', () => {
  const screenshot = `data:image/png;base64,iVBORw0KGgoSCREENSHOTBYTES${'A'.repeat(5_000)}`;
  const messages: Message[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'fix it' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: [{ type: 'image_url', image_url: { url: screenshot } }] },
  ];
  const input: CompactContextInput = {
    runId: 'run-7',
    turn: 9,
    messages,
    settings: { agent: { model: 'agent-model' }, compaction: { model: 'cheap-model' } },
    cardMaxBytes: 8192,
  };

  it('sends a digest without image bytes to the compaction model, tagged as compaction, and returns the card', async () => {
    world.compactionRequests.length = 0;
    const result = await run(activities[ACTIVITY.compactContext], input);
    const sent = world.compactionRequests[0]?.request;
    expect(sent?.model).toBe('cheap-model');
    expect(sent?.metadata).toEqual({ longrun_run_id: 'run-7', longrun_turn: '9', longrun_purpose: 'compaction' });
    expect(JSON.stringify(sent)).not.toContain('SCREENSHOTBYTES');
    expect(JSON.stringify(sent)).toContain('1 screenshots counted, not included');
    expect(result.model).toBe('cheap-model');
    expect(result.card.startsWith('## Task\ncompacted at turn 9')).toBe(true);
  });

  it('fails on an invalid card or an HTTP error', async () => {
    answerModelWith(() => HttpResponse.json({ choices: [{ message: { role: 'assistant', content: 'Sure! Here is a summary.' } }] }));
    expect(await failureOf(run(activities[ACTIVITY.compactContext], input))).toMatchObject({
      type: FAILURE_TYPE.invalidCard,
      message: 'card must start with "## Task"',
    });
    answerModelWith(() => HttpResponse.json({ error: 'down' }, { status: 500 }));
    expect(await failureOf(run(activities[ACTIVITY.compactContext], input))).toMatchObject({
      type: FAILURE_TYPE.httpUnavailable,
    });
  });

  it('picks the compaction model, else the judge, else the env model, else the agent model', () => {
    const agent = { model: 'agent' };
    expect(compactionModel({ agent, compaction: { model: 'c' }, judge: { model: 'j' } }, 'env')).toBe('c');
    expect(compactionModel({ agent, compaction: {}, judge: { model: 'j' } }, 'env')).toBe('j');
    expect(compactionModel({ agent, judge: { model: ' ' } }, 'env')).toBe('env');
    expect(compactionModel({ agent }, undefined)).toBe('agent');
  });
});

describe('run_tool', () => {
  it('asks the sandbox for the named tool and returns its result', async () => {
    const call = {
      id: 'c9',
      type: 'function' as const,
      function: { name: 'shell', arguments: '{"seed":3,"bytes":40}' },
    };
    const result = await run(activities[ACTIVITY.runTool], { runId: 'r', turn: 2, call });
    expect(result.tool_call_id).toBe('c9');
    expect(result.content).toHaveLength(40);
  });
});

describe('journal.append', () => {
  const event = (seq: number, prevHash: string): JournalEvent => ({
    runId: 'run-1',
    seq,
    type: 'turn.completed',
    turn: seq,
    data: { turn: seq },
    prevHash,
  });

  it('returns the hash of each event and checks the chain inside a batch', async () => {
    const first = event(1, GENESIS_HASH);
    const second = event(2, journalHash(first));
    expect(await run(activities[ACTIVITY.journalAppend], { events: [first, second] })).toEqual({
      hashes: [journalHash(first), journalHash(second)],
    });
    const broken = await failureOf(run(activities[ACTIVITY.journalAppend], { events: [first, event(2, GENESIS_HASH)] }));
    expect(broken).toMatchObject({ type: FAILURE_TYPE.invalidJournal, nonRetryable: true });
  });
});

describe('createActivities', () => {
  it('names the bad field', () => {
    expect(() => createActivities({ modelBaseUrl: 'model', sandboxBaseUrl: SANDBOX_BASE_URL })).toThrow(
      'createActivities: modelBaseUrl must be an absolute URL, got "model"',
    );
    expect(() => createActivities({ modelBaseUrl: MODEL_BASE_URL, sandboxBaseUrl: SANDBOX_BASE_URL, timeoutsMs: { tool: 0 } })).toThrow(
      'createActivities: timeoutsMs.tool must be a positive integer, got 0',
    );
  });
});
