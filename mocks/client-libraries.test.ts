/**
 * The wire formats as the real client libraries see them: openai (Chat Completions, Responses)
 * and @anthropic-ai/sdk (Messages), against the mocks in this process (msw) and over HTTP (the
 * mock server), streaming and not. No request carries longrun metadata.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { BYTES_PER_TOKEN } from '../src/contract/limits.ts';
import { runMarker } from '../src/contract/run-marker.ts';
import type { FaultProfile } from './faults/fault-profile.ts';
import type { MockProviderOptions } from './mock-provider.ts';
import { startMockServer } from './server/http-server.ts';
import { startInProcessMocks } from './server/in-process.ts';
import type { PlannedTurn } from './synthetic/plan-run.ts';
import {
  anthropicClient,
  createPlayer,
  openAIClient,
  PLAYER_KINDS,
  type PlayedTurn,
  type PlayerKind,
  playRun,
} from './testing/client-players.ts';
import { ANTHROPIC_TOOLS, CHAT_TOOLS, RESPONSES_TOOLS } from './testing/sandbox-tools.ts';

const SHAPE = { scale: 0.02, screenshots: { share: 0.3 }, overrides: { turns: 5 } };

type Mocks = Pick<Awaited<ReturnType<typeof startMockServer>>, 'modelBaseUrl' | 'sandboxBaseUrl' | 'planFor' | 'recorder'> & {
  close(): unknown;
};

const WAYS: [string, (options: MockProviderOptions) => Promise<Mocks>][] = [
  ['in process', async (options) => startInProcessMocks(options)],
  ['over HTTP', (options) => startMockServer(options)],
];

/** What the plan says a turn answers, as the players read answers back. */
function planned(turn: PlannedTurn | undefined) {
  const message = turn?.message;
  return {
    text: message?.content ?? '',
    calls: (message?.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
  };
}

const answerOf = (turn: PlayedTurn) => ({ text: turn.text, calls: turn.calls });

/** The status and details a client library's error surfaces, or what it answered instead. */
async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
    return 'answered';
  } catch (error) {
    if (error instanceof OpenAI.APIError) {
      return {
        library: 'openai',
        class: error.constructor.name,
        status: error.status,
        code: error.code,
        retryAfter: error.headers?.get('retry-after') ?? null,
        message: error.message,
      };
    }
    if (error instanceof Anthropic.APIError) {
      const body = error.error as { error?: { type?: string } } | undefined;
      return {
        library: 'anthropic',
        class: error.constructor.name,
        status: error.status,
        type: body?.error?.type,
        retryAfter: error.headers?.get('retry-after') ?? null,
        message: error.message,
      };
    }
    throw error;
  }
}

describe.each(WAYS)('the wire formats, driven by their client libraries %s', (_, start) => {
  let mocks: Mocks | undefined;
  afterEach(async () => {
    await mocks?.close();
    mocks = undefined;
  });

  it.each(PLAYER_KINDS.flatMap((kind) => [false, true].map((stream) => [kind, stream] as const)))(
    '%s (stream %s) plays the marked run turn by turn from its plan, tool calls and screenshots round trip through the sandbox',
    async (kind, stream) => {
      mocks = await start({ seed: 7, shape: SHAPE });
      const plan = mocks.planFor('run-0003');
      expect(plan.userRequest.endsWith(runMarker('run-0003'))).toBe(true);
      const player = createPlayer(kind, { modelBaseUrl: mocks.modelBaseUrl, stream });
      const run = await playRun(player, { sandboxBaseUrl: mocks.sandboxBaseUrl, runId: 'run-0003', userRequest: plan.userRequest });
      expect(run.turns.map(answerOf)).toEqual(plan.turns.map(planned));
      expect(plan.turns.some((t) => t.calls.some((c) => c.tool === 'screenshot'))).toBe(true);
      const agent = mocks.recorder.records().filter((r) => r.target === 'agent');
      expect(agent.map((r) => [r.runId, r.turn, r.status, r.stream])).toEqual(plan.turns.map((t) => ['run-0003', t.turn, 200, stream]));
      // Usage counts the request's bytes, whatever the format.
      run.turns.forEach((turn, i) => {
        expect(turn.inputTokens).toBe(Math.round((agent[i]?.requestBytes as number) / BYTES_PER_TOKEN));
        expect(turn.outputTokens).toBeGreaterThan(0);
      });
    },
  );

  it.each(PLAYER_KINDS)(
    "%s: a marked run meets its scenario's faults at the planned turn, and the client's own retry carries it on",
    async (kind) => {
      const faults: FaultProfile = {
        agent: [{ fault: { kind: 'http-429', retryAfterSeconds: 0 }, when: { runIds: ['run-0003'], turns: [2], attempts: [1] } }],
      };
      mocks = await start({ seed: 7, shape: SHAPE, faults });
      const plan = mocks.planFor('run-0003');
      const player = createPlayer(kind, { modelBaseUrl: mocks.modelBaseUrl, stream: true, maxRetries: 1 });
      const run = await playRun(player, { sandboxBaseUrl: mocks.sandboxBaseUrl, runId: 'run-0003', userRequest: plan.userRequest });
      expect(run.turns.map(answerOf)).toEqual(plan.turns.map(planned));
      const agent = mocks.recorder.records().filter((r) => r.target === 'agent');
      expect(agent.map((r) => [r.turn, r.status, r.fault])).toEqual([
        [1, 200, null],
        [2, 429, 'http-429'],
        ...plan.turns.slice(1).map((t) => [t.turn, 200, null]),
      ]);
    },
  );

  const ERRORS: FaultProfile = {
    agent: [
      { fault: { kind: 'http-429', retryAfterSeconds: 7 }, when: { runIds: ['limited'] } },
      { fault: { kind: 'http-500' }, when: { runIds: ['broken'] } },
      { fault: { kind: 'http-503', retryAfterSeconds: 2 }, when: { runIds: ['unavailable'] } },
      { fault: { kind: 'overloaded' }, when: { runIds: ['overloaded'] } },
      { fault: { kind: 'context-length-exceeded', maxTokens: 20 }, when: { runIds: ['long'] } },
      { fault: { kind: 'context-length-exceeded', maxTokens: 100_000 }, when: { runIds: ['roomy'] } },
      { fault: { kind: 'timeout', maxHangMs: 10 }, when: { runIds: ['slow'] } },
    ],
  };

  it('surfaces each error fault in each provider shape as its client library types it', async () => {
    mocks = await start({ seed: 7, shape: SHAPE, faults: ERRORS });
    const base = { modelBaseUrl: mocks.modelBaseUrl };
    const ask = (kind: PlayerKind, runId: string, stream = false) =>
      failureOf(createPlayer(kind, { ...base, stream }).start(`Fix the build. ${runMarker(runId)}`));
    for (const kind of ['chat-completions', 'responses'] as const) {
      expect(await ask(kind, 'limited')).toMatchObject({
        class: 'RateLimitError',
        status: 429,
        code: 'rate_limit_exceeded',
        retryAfter: '7',
      });
      expect(await ask(kind, 'limited', true)).toMatchObject({ class: 'RateLimitError', status: 429, retryAfter: '7' });
      expect(await ask(kind, 'broken')).toMatchObject({ class: 'InternalServerError', status: 500, code: 'server_error' });
      expect(await ask(kind, 'unavailable')).toMatchObject({ class: 'InternalServerError', status: 503, retryAfter: '2' });
      expect(await ask(kind, 'overloaded')).toMatchObject({ class: 'InternalServerError', status: 503, code: 'overloaded' });
      expect(await ask(kind, 'slow')).toMatchObject({ class: 'InternalServerError', status: 504 });
      expect(await ask(kind, 'long')).toMatchObject({ class: 'BadRequestError', status: 400, code: 'context_length_exceeded' });
    }
    expect(await ask('chat-completions', 'long')).toMatchObject({
      message: expect.stringMatching(/maximum context length is 20 tokens\. However, your messages resulted in \d+ tokens/),
    });
    expect(await ask('responses', 'long')).toMatchObject({
      message: expect.stringContaining('Your input exceeds the context window of this model'),
    });
    expect(await ask('messages', 'limited')).toMatchObject({
      class: 'RateLimitError',
      status: 429,
      type: 'rate_limit_error',
      retryAfter: '7',
    });
    expect(await ask('messages', 'limited', true)).toMatchObject({ class: 'RateLimitError', status: 429, type: 'rate_limit_error' });
    expect(await ask('messages', 'broken')).toMatchObject({ class: 'InternalServerError', status: 500, type: 'api_error' });
    expect(await ask('messages', 'unavailable')).toMatchObject({ class: 'ServiceUnavailableError', status: 503, retryAfter: '2' });
    expect(await ask('messages', 'overloaded')).toMatchObject({ class: 'OverloadedError', status: 529, type: 'overloaded_error' });
    expect(await ask('messages', 'overloaded', true)).toMatchObject({ class: 'OverloadedError', status: 529 });
    expect(await ask('messages', 'slow')).toMatchObject({ class: 'GatewayTimeoutError', status: 504, type: 'timeout_error' });
    expect(await ask('messages', 'long')).toMatchObject({
      class: 'BadRequestError',
      status: 400,
      type: 'invalid_request_error',
      message: expect.stringMatching(/prompt is too long: \d+ tokens > 20 maximum/),
    });
    // A request that fits the window is answered.
    for (const kind of PLAYER_KINDS) expect(await ask(kind, 'roomy')).toBe('answered');
  });

  it('answers an Anthropic client at either base URL: without /v1 it posts /v1/messages, with it /v1/v1/messages', async () => {
    mocks = await start({ seed: 7, shape: SHAPE });
    const root = mocks.modelBaseUrl.replace(/\/v1$/, '');
    const posted: string[] = [];
    const fetchSeen: typeof fetch = (input, init) => {
      posted.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    };
    const prompt = `Fix the build. ${runMarker('run-0002')}`;
    const texts: string[] = [];
    for (const baseURL of [root, mocks.modelBaseUrl]) {
      const client = new Anthropic({ baseURL, apiKey: 'test-key', maxRetries: 0, fetch: fetchSeen });
      const message = await client.messages.create({
        model: 'm',
        max_tokens: 8192,
        messages: [{ role: 'user', content: prompt }],
        tools: ANTHROPIC_TOOLS,
      });
      texts.push(message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''));
    }
    expect(posted.map((path) => path.slice(path.indexOf('/v1')))).toEqual(['/v1/messages', '/v1/v1/messages']);
    expect(texts[1]).toBe(texts[0]);
    expect(texts[0]).toBe(mocks.planFor('run-0002').turns[0]?.message.content);
  });

  it("stops an Anthropic answer at the request's max_tokens: stop_reason max_tokens, the text cut, no tool call", async () => {
    mocks = await start({ seed: 7, shape: SHAPE });
    const anthropic = anthropicClient(mocks);
    const prompt = `Fix the build. ${runMarker('run-0002')}`;
    const planned = mocks.planFor('run-0002').turns[0]?.message;
    expect(planned?.tool_calls?.length).toBeGreaterThan(0);
    for (const stream of [false, true]) {
      const body = { model: 'm', max_tokens: 5, messages: [{ role: 'user' as const, content: prompt }], tools: ANTHROPIC_TOOLS };
      const message = stream ? await anthropic.messages.stream(body).finalMessage() : await anthropic.messages.create(body);
      expect(message.stop_reason).toBe('max_tokens');
      expect(message.usage.output_tokens).toBe(5);
      expect(message.content.map((b) => b.type)).toEqual(['text']);
      const text = message.content[0]?.type === 'text' ? message.content[0].text : '';
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(5 * BYTES_PER_TOKEN);
      expect(planned?.content?.startsWith(text)).toBe(true);
      expect(text.length).toBeGreaterThan(0);
    }
    // A roomy max_tokens leaves the answer whole.
    const whole = await anthropic.messages.create({
      model: 'm',
      max_tokens: 8192,
      messages: [{ role: 'user', content: prompt }],
      tools: ANTHROPIC_TOOLS,
    });
    expect(whole.stop_reason).toBe('tool_use');
  });

  it("fails an overloaded Anthropic stream midway with its error event, and words a 429 with Anthropic's rate-limit headers", async () => {
    const faults: FaultProfile = {
      agent: [
        { fault: { kind: 'overloaded', midStream: true }, when: { runIds: ['midway'] } },
        { fault: { kind: 'http-429', retryAfterSeconds: 3 }, when: { runIds: ['limited'] } },
      ],
    };
    mocks = await start({ seed: 7, shape: SHAPE, faults });
    const anthropic = anthropicClient(mocks);
    const messages = (runId: string) => [{ role: 'user' as const, content: `Fix the build. ${runMarker(runId)}` }];
    const raw = await (
      await anthropic.messages
        .create({ model: 'm', max_tokens: 8192, messages: messages('midway'), tools: ANTHROPIC_TOOLS, stream: true })
        .asResponse()
    ).text();
    expect(raw.match(/^event: .+$/gm)).toEqual([
      'event: message_start',
      'event: ping',
      'event: content_block_start',
      'event: content_block_delta',
      'event: error',
    ]);
    const texts: string[] = [];
    const stream = anthropic.messages
      .stream({ model: 'm', max_tokens: 8192, messages: messages('midway'), tools: ANTHROPIC_TOOLS })
      .on('text', (t) => void texts.push(t));
    const failure = await stream.finalMessage().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type: 'overloaded_error' },
    });
    expect(texts.length).toBe(1);
    expect(mocks.recorder.records().map((r) => [r.runId, r.status, r.fault])).toEqual([
      ['midway', 200, 'overloaded'],
      ['midway', 200, 'overloaded'],
    ]);
    // Without midStream a stream is refused before it starts, as before (529).
    const limited = await anthropic.messages
      .create({ model: 'm', max_tokens: 8192, messages: messages('limited'), tools: ANTHROPIC_TOOLS })
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    const headers = (limited as InstanceType<typeof Anthropic.RateLimitError>).headers;
    expect(headers?.get('retry-after')).toBe('3');
    expect(headers?.get('anthropic-ratelimit-tokens-remaining')).toBe('0');
    expect(headers?.get('anthropic-ratelimit-requests-limit')).toBe('50');
    const reset = Date.parse(headers?.get('anthropic-ratelimit-tokens-reset') ?? '');
    expect(reset - Date.now()).toBeGreaterThan(0);
    expect(reset - Date.now()).toBeLessThanOrEqual(4000);
  });

  it('answers the compaction model in every format with a card of the digest, the instructions left out', async () => {
    mocks = await start({ seed: 7, shape: SHAPE, compactionModels: ['compactor'] });
    const instructions = 'Compact into at most 8192 bytes.';
    const digest = 'Digest: PROJ-4821 fixed in src/orders/order-service.ts at commit 3f9a2c1e8b, order ord_8F2kd9aaXX';
    const openai = openAIClient(mocks);
    const anthropic = anthropicClient(mocks);
    const completion = await openai.chat.completions.create({
      model: 'compactor',
      messages: [
        { role: 'system', content: instructions },
        { role: 'user', content: digest },
      ],
    });
    const response = await openai.responses.create({ model: 'compactor', instructions, input: digest });
    const message = await anthropic.messages.create({
      model: 'compactor',
      max_tokens: 4096,
      system: instructions,
      messages: [{ role: 'user', content: digest }],
    });
    const cards = [
      completion.choices[0]?.message.content ?? '',
      response.output_text,
      message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
    ];
    expect(cards[0]).toContain('## Task');
    expect(cards[1]).toBe(cards[0]);
    expect(cards[2]).toBe(cards[0]);
    for (const id of ['PROJ-4821', 'src/orders/order-service.ts', '3f9a2c1e8b', 'ord_8F2kd9aaXX']) expect(cards[0]).toContain(id);
    expect(cards[0]).not.toContain('8192');
    expect(mocks.recorder.records().map((r) => r.target)).toEqual(['compaction', 'compaction', 'compaction']);
  });

  it('names the bad field in each provider shape', async () => {
    mocks = await start({ seed: 7, shape: SHAPE });
    const openai = openAIClient(mocks);
    expect(await failureOf(openai.responses.create({ model: 'm', input: 'go', previous_response_id: 'resp_zz' }))).toMatchObject({
      class: 'BadRequestError',
      message: expect.stringContaining('body.previous_response_id: "resp_zz" is no response of this mock'),
    });
    const anthropic = anthropicClient(mocks);
    expect(await failureOf(anthropic.messages.create({ model: 'm', max_tokens: 10, messages: [] }))).toMatchObject({
      class: 'BadRequestError',
      type: 'invalid_request_error',
      message: expect.stringContaining('body.messages: '),
    });
  });

  it('without a marker derives one anonymous run from the first user message in every format, and its turns from the conversation', async () => {
    mocks = await start({ seed: 7, shape: SHAPE });
    const prompt = 'Fix the flaky checkout test, please.';
    for (const kind of PLAYER_KINDS) {
      const player = createPlayer(kind, { modelBaseUrl: mocks.modelBaseUrl, stream: false });
      const first = await player.start(prompt);
      const runId = mocks.recorder.records().at(-1)?.runId as string;
      expect(runId).toMatch(/^anonymous-[0-9a-f]+$/);
      const plan = mocks.planFor(runId);
      expect(answerOf(first)).toEqual(planned(plan.turns[0]));
      const results = first.calls.map((call) => ({ tool_call_id: call.id, content: 'done' }));
      expect(answerOf(await player.next(results))).toEqual(planned(plan.turns[1]));
    }
    const agent = mocks.recorder.records().filter((r) => r.target === 'agent');
    expect(new Set(agent.map((r) => r.runId)).size).toBe(1);
    expect(agent.map((r) => r.turn)).toEqual([1, 2, 1, 2, 1, 2, 1, 2]);
  });

  it('gives the same bytes for the same seed in every format, other bytes for another seed', async () => {
    const session = async (seed: number) => {
      mocks = await start({ seed, shape: SHAPE });
      const openai = openAIClient(mocks);
      const anthropic = anthropicClient(mocks);
      const input = `Fix the build. ${runMarker('run-0001')}`;
      const bodies: string[] = [];
      for (const stream of [false, true]) {
        const messages = [{ role: 'user' as const, content: input }];
        bodies.push(await (await openai.chat.completions.create({ model: 'm', messages, tools: CHAT_TOOLS, stream }).asResponse()).text());
        bodies.push(await (await openai.responses.create({ model: 'm', input, tools: RESPONSES_TOOLS, stream }).asResponse()).text());
        bodies.push(
          await (
            await anthropic.messages.create({ model: 'm', max_tokens: 8192, messages, tools: ANTHROPIC_TOOLS, stream }).asResponse()
          ).text(),
        );
      }
      await mocks.close();
      mocks = undefined;
      return bodies;
    };
    const first = await session(3);
    expect(first.filter((body) => body.includes('call_'))).toHaveLength(6);
    // The streams in each provider's own event shapes (bodies 3-5: chat, responses, messages).
    const names = (body: string) => [...new Set([...body.matchAll(/^event: (.+)$/gm)].map((m) => m[1]))];
    expect(first[3]?.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(names(first[3] as string)).toEqual([]);
    expect(names(first[4] as string)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.completed',
    ]);
    expect(names(first[5] as string)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(await session(3)).toEqual(first);
    const other = await session(4);
    for (const [i, body] of first.entries()) expect(other[i]).not.toBe(body);
  });
});
