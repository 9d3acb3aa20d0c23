/**
 * Provider-side compaction as the real client libraries drive it: OpenAI's Responses API
 * (`context_management`, `responses.compact`) and Anthropic's Messages API (`compact_20260112`
 * through `client.beta.messages`, the `compaction` param), streaming and not, against the mocks
 * in this process. No request carries longrun metadata.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { BYTES_PER_TOKEN } from '../src/contract/limits.ts';
import type { ToolResult } from '../src/contract/messages.ts';
import { ANTHROPIC_MIN_TRIGGER, SUMMARY_TOKENS } from './handlers/provider-compaction.ts';
import { startMockServer } from './server/http-server.ts';
import { startInProcessMocks } from './server/in-process.ts';
import type { PlannedTurn } from './synthetic/plan-run.ts';
import { anthropicClient, openAIClient, type PlayedCall, runTool } from './testing/client-players.ts';
import { ANTHROPIC_TOOLS, RESPONSES_TOOLS } from './testing/sandbox-tools.ts';

// Runs of ~120k tokens over 10 turns: past Anthropic's least trigger (50k) halfway.
const SHAPE = { scale: 1, screenshots: { share: 0 }, overrides: { targetTokens: 120_000, turns: 10 } };
const RUN = 'run-0005';
const MODEL = 'agent-model';
const INSTRUCTIONS = 'You are a coding agent.';

type Mocks = ReturnType<typeof startInProcessMocks>;
let mocks: Mocks | undefined;
afterEach(() => {
  mocks?.close();
  mocks = undefined;
});

function start(seed = 7): Mocks {
  mocks = startInProcessMocks({ seed, shape: SHAPE });
  return mocks;
}

/** The plan's answer, as the tests read answers back. */
function planned(turn: PlannedTurn | undefined) {
  return {
    text: turn?.message.content ?? '',
    calls: (turn?.message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
  };
}

/** A tool's output as text (the runs here take no screenshots). */
function textOf(result: ToolResult): string {
  return typeof result.content === 'string' ? result.content : result.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

async function outputs(m: Mocks, turn: number, calls: readonly PlayedCall[]) {
  return Promise.all(calls.map(async (call) => ({ id: call.id, text: textOf(await runTool(m.sandboxBaseUrl, RUN, turn, call)) })));
}

type Input = OpenAI.Responses.ResponseInputItem;
type ContextManagement = OpenAI.Responses.ResponseCreateParams['context_management'];

interface OpenAITurn {
  text: string;
  calls: PlayedCall[];
  usage: OpenAI.Responses.ResponseUsage;
  compaction: OpenAI.Responses.ResponseCompactionItem | undefined;
  /** The input the turn's request sent. */
  input: Input[];
}

async function createResponse(client: OpenAI, body: OpenAI.Responses.ResponseCreateParamsNonStreaming, stream: boolean) {
  return stream
    ? client.responses.stream(body as Parameters<typeof client.responses.stream>[0]).finalResponse()
    : client.responses.create(body);
}

/**
 * Plays the run through the Responses API; past a compaction item, the next input drops every
 * item before it, as the guide allows.
 */
async function playResponses(m: Mocks, stream: boolean, contextManagement?: ContextManagement): Promise<OpenAITurn[]> {
  const client = openAIClient({ modelBaseUrl: m.modelBaseUrl });
  let input: Input[] = [{ role: 'user', content: m.planFor(RUN).userRequest }];
  const turns: OpenAITurn[] = [];
  for (let turn = 1; turn <= 20; turn++) {
    const response = await createResponse(
      client,
      { model: MODEL, instructions: INSTRUCTIONS, input, tools: RESPONSES_TOOLS, context_management: contextManagement },
      stream,
    );
    const compaction = response.output.find((o) => o.type === 'compaction') as OpenAI.Responses.ResponseCompactionItem | undefined;
    const calls = response.output.flatMap((o) =>
      o.type === 'function_call' ? [{ id: o.call_id, name: o.name, arguments: o.arguments }] : [],
    );
    turns.push({ text: response.output_text, calls, usage: response.usage as OpenAI.Responses.ResponseUsage, compaction, input });
    if (calls.length === 0) break;
    const results = (await outputs(m, turn, calls)).map((r): Input => ({ type: 'function_call_output', call_id: r.id, output: r.text }));
    input = [...(compaction ? [] : input), ...(response.output as Input[]), ...results];
  }
  return turns;
}

describe.each([false, true])('OpenAI Responses compaction through the openai client (stream %s)', (stream) => {
  it('compacts past compact_threshold, and the next request carrying the item bills less than the same request without it', async () => {
    const m = start();
    const plan = m.planFor(RUN);
    // Past 40k tokens: the window after a compaction (the summary, one turn's outputs) stays under it.
    const threshold = 40_000;
    const compacted = await playResponses(m, stream, [{ type: 'compaction', compact_threshold: threshold }]);
    const plain = await playResponses(m, stream);
    // The run plays to its end from its plan, though the marker went with the dropped items.
    expect(compacted.map((t) => ({ text: t.text, calls: t.calls }))).toEqual(plan.turns.map(planned));
    expect(plain.map((t) => ({ text: t.text, calls: t.calls }))).toEqual(plan.turns.map(planned));
    // A request without context_management never compacts.
    expect(plain.every((t) => t.compaction === undefined)).toBe(true);
    // The first compaction comes with the first turn whose input passes the threshold.
    const first = compacted.findIndex((t) => t.compaction !== undefined);
    expect(first).toBe(plain.findIndex((t) => t.usage.input_tokens > threshold));
    expect(first).toBeGreaterThan(0);
    const item = compacted[first]?.compaction as OpenAI.Responses.ResponseCompactionItem;
    expect(item.encrypted_content).toMatch(/^lrc1\./);
    // The compacting turn bills both passes: the input, then the compacted window; the summary is written.
    const compacting = compacted[first]?.usage as OpenAI.Responses.ResponseUsage;
    expect(compacting.input_tokens).toBeGreaterThan(plain[first]?.usage.input_tokens as number);
    expect(compacting.output_tokens).toBe((plain[first]?.usage.output_tokens as number) + SUMMARY_TOKENS);
    // The next request holds the item and what followed it, and costs less than it would have.
    const next = compacted[first + 1] as OpenAITurn;
    expect(next.compaction).toBeUndefined();
    expect(next.input[0]).toMatchObject({ type: 'compaction', encrypted_content: item.encrypted_content });
    expect(next.usage.input_tokens).toBeLessThan((plain[first + 1] as OpenAITurn).usage.input_tokens);
    // Exactly: the request's bytes but the item's, and the item as the summary's fixed figure.
    const sent = m.recorder.records().find((r) => r.target === 'agent' && r.turn === first + 2) as { requestBytes: number };
    expect(next.usage.input_tokens).toBe(
      Math.round((sent.requestBytes - Buffer.byteLength(JSON.stringify(next.input[0]))) / BYTES_PER_TOKEN) + SUMMARY_TOKENS,
    );
    // The cache held the prefix before compaction; the compacted window starts a new one.
    const cachedBefore = plain[first + 1]?.usage.input_tokens_details.cached_tokens as number;
    expect(cachedBefore).toBeGreaterThan(0);
    expect(next.usage.input_tokens_details.cached_tokens).toBeLessThan(cachedBefore);
    expect(compacted.every((t) => t.usage.input_tokens_details.cached_tokens <= t.usage.input_tokens)).toBe(true);
  });

  it('refuses a forged compaction item, a foreign one, and malformed context_management, in the API error shape', async () => {
    const m = start();
    const turns = await playResponses(m, stream, [{ type: 'compaction', compact_threshold: 20_000 }]);
    const withItem = turns.find((t) => t.input[0]?.type === 'compaction') as OpenAITurn;
    const client = openAIClient({ modelBaseUrl: m.modelBaseUrl });
    const send = (input: Input[], contextManagement?: ContextManagement) =>
      createResponse(client, { model: MODEL, input, tools: RESPONSES_TOOLS, context_management: contextManagement }, stream).then(
        () => 'answered',
        (error: unknown) => error,
      );
    // The request as played is answered; one whose item's run is rewritten is not.
    expect(await send(withItem.input)).toBe('answered');
    const token = (withItem.input[0] as OpenAI.Responses.ResponseCompactionItemParam).encrypted_content;
    const [prefix, payload, signature] = token.split('.');
    const seal = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...seal, answers: 0 })).toString('base64url');
    const forged = [
      { type: 'compaction' as const, encrypted_content: `${prefix}.${forgedPayload}.${signature}` },
      ...withItem.input.slice(1),
    ];
    const refused = await send(forged);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('not a compaction this provider issued');
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('input.0.encrypted_content');
    // The genuine item in a request of another run.
    const other = m.planFor('run-0006').userRequest;
    const foreign = await send([{ role: 'user', content: other }, ...withItem.input]);
    expect((foreign as Error).message).toContain(`a compaction issued for run ${RUN}, in a request of run run-0006`);
    // Malformed context_management, as the API refuses it.
    const low = (await send([{ role: 'user', content: 'hi' }], [{ type: 'compaction', compact_threshold: 10 }])) as InstanceType<
      typeof OpenAI.BadRequestError
    >;
    expect(low).toBeInstanceOf(OpenAI.BadRequestError);
    expect(low.param).toBe('context_management.0.compact_threshold');
    expect(low.type).toBe('invalid_request_error');
    const unknown = (await send([{ role: 'user', content: 'hi' }], [{ type: 'truncate' }])) as InstanceType<typeof OpenAI.BadRequestError>;
    expect(unknown.param).toBe('context_management.0.type');
    // Every refusal is recorded as the run's.
    expect(
      m.recorder
        .records()
        .filter((r) => r.status === 400)
        .map((r) => r.refusal?.split(':')[0]),
    ).toEqual([
      'body.input.0.encrypted_content',
      'body.input.1.encrypted_content',
      'body.context_management.0.compact_threshold',
      'body.context_management.0.type',
    ]);
  });
});

describe('POST /responses/compact through client.responses.compact', () => {
  it.each([
    ['in process', async () => start()],
    ['over HTTP', async () => startMockServer({ seed: 7, shape: SHAPE })],
  ])(
    'answers the compacted window %s: the user messages, one compaction item, and a next request that plays the turn for less',
    async (_, open) => {
      const m = (await open()) as Pick<Mocks, 'modelBaseUrl' | 'sandboxBaseUrl' | 'planFor' | 'recorder'> & { close(): unknown };
      try {
        const plan = m.planFor(RUN);
        const plain = await playResponses(m as Mocks, false);
        const at = 5;
        const client = openAIClient({ modelBaseUrl: m.modelBaseUrl });
        const input = (plain[at] as OpenAITurn).input;
        const compacted = await client.responses.compact({ model: MODEL, input });
        expect(compacted.object).toBe('response.compaction');
        expect(compacted.output.map((o) => o.type)).toEqual(['message', 'compaction']);
        expect(compacted.usage.output_tokens).toBe(SUMMARY_TOKENS);
        const pass = m.recorder.records().find((r) => r.target === 'compaction');
        expect(compacted.usage.input_tokens).toBe(Math.round((pass?.requestBytes as number) / BYTES_PER_TOKEN));
        // The window as the next input: the turn is the one the conversation was at.
        const next = await client.responses.create({ model: MODEL, input: compacted.output as Input[], tools: RESPONSES_TOOLS });
        expect({ text: next.output_text, calls: next.output.flatMap((o) => (o.type === 'function_call' ? [o.call_id] : [])) }).toEqual({
          text: planned(plan.turns[at]).text,
          calls: planned(plan.turns[at]).calls.map((c) => c.id),
        });
        expect(next.usage?.input_tokens).toBeLessThan((plain[at] as OpenAITurn).usage.input_tokens);
        expect(
          m.recorder
            .records()
            .filter((r) => r.target === 'compaction')
            .map((r) => [r.runId, r.turn, r.status]),
        ).toEqual([[RUN, at + 1, 200]]);
      } finally {
        await m.close();
      }
    },
  );
});

type Beta = Anthropic.Beta.Messages.BetaMessageParam;
type BetaMessage = Anthropic.Beta.Messages.BetaMessage;
type BetaBody = Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;

async function createMessage(client: Anthropic, body: BetaBody, stream: boolean): Promise<BetaMessage> {
  return stream ? client.beta.messages.stream(body).finalMessage() : client.beta.messages.create(body);
}

const EDIT_BETA = ['compact-2026-01-12'];

interface AnthropicTurn {
  message: BetaMessage;
  messages: Beta[];
}

/** Plays the run through Anthropic's beta Messages API, sending every message back (the API drops what a compaction replaced). */
async function playMessages(m: Mocks, stream: boolean, extra: Partial<BetaBody> = {}): Promise<AnthropicTurn[]> {
  const client = anthropicClient({ modelBaseUrl: m.modelBaseUrl });
  const messages: Beta[] = [{ role: 'user', content: m.planFor(RUN).userRequest }];
  const turns: AnthropicTurn[] = [];
  for (let turn = 1; turns.length <= 30; ) {
    const sent = [...messages];
    const message = await createMessage(
      client,
      { model: MODEL, max_tokens: 8192, system: INSTRUCTIONS, tools: ANTHROPIC_TOOLS, messages: sent, ...extra },
      stream,
    );
    turns.push({ message, messages: sent });
    messages.push({ role: 'assistant', content: message.content as Anthropic.Beta.Messages.BetaContentBlockParam[] });
    // Paused after a compaction: the block goes back, and the same turn is asked again.
    if (message.stop_reason === 'compaction') continue;
    const calls = callsOf(message);
    if (calls.length === 0) break;
    const results = await outputs(m, turn++, calls);
    messages.push({ role: 'user', content: results.map((r) => ({ type: 'tool_result' as const, tool_use_id: r.id, content: r.text })) });
  }
  return turns;
}

function callsOf(message: BetaMessage): PlayedCall[] {
  return message.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: JSON.stringify(b.input) }] : []));
}

function answerOf(message: BetaMessage) {
  return { text: message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''), calls: callsOf(message) };
}

const compactionOf = (message: BetaMessage) =>
  message.content.find((b): b is Anthropic.Beta.Messages.BetaCompactionBlock => b.type === 'compaction');

describe.each([false, true])('Anthropic compaction through @anthropic-ai/sdk beta messages (stream %s)', (stream) => {
  const EDIT = {
    context_management: {
      edits: [{ type: 'compact_20260112' as const, trigger: { type: 'input_tokens' as const, value: ANTHROPIC_MIN_TRIGGER } }],
    },
  };

  it('compacts at the trigger, reports the compaction in usage.iterations, and the next request bills less', async () => {
    const m = start();
    const plan = m.planFor(RUN);
    const compacted = await playMessages(m, stream, { betas: EDIT_BETA, ...EDIT });
    const plain = await playMessages(m, stream, { betas: EDIT_BETA });
    expect(compacted.map((t) => answerOf(t.message))).toEqual(plan.turns.map(planned));
    expect(plain.map((t) => answerOf(t.message))).toEqual(plan.turns.map(planned));
    expect(plain.every((t) => compactionOf(t.message) === undefined)).toBe(true);
    const first = compacted.findIndex((t) => compactionOf(t.message) !== undefined);
    expect(first).toBe(plain.findIndex((t) => t.message.usage.input_tokens >= ANTHROPIC_MIN_TRIGGER));
    expect(first).toBeGreaterThan(0);
    const { message } = compacted[first] as AnthropicTurn;
    const block = compactionOf(message) as Anthropic.Beta.Messages.BetaCompactionBlock;
    expect(message.content[0]).toBe(block);
    expect(block.content).toContain('## ');
    expect(block.encrypted_content).toMatch(/^lrc1\./);
    // The compaction's own usage is apart; the top level is the answer's, from the compacted window.
    const iterations = message.usage.iterations ?? [];
    expect(iterations.map((i) => i.type)).toEqual(['compaction', 'message']);
    // (the compacting request weighs its context_management field more than the plain one)
    const passInput = (iterations[0]?.input_tokens as number) - (plain[first]?.message.usage.input_tokens as number);
    expect(passInput).toBeGreaterThan(0);
    expect(passInput).toBeLessThan(50);
    expect(iterations[0]?.output_tokens).toBe(SUMMARY_TOKENS);
    expect(message.usage.input_tokens).toBe(iterations[1]?.input_tokens);
    expect(message.usage.input_tokens).toBeLessThan(plain[first]?.message.usage.input_tokens as number);
    // The next request sends every message, and is billed from the block on.
    const next = compacted[first + 1] as AnthropicTurn;
    expect(compactionOf(next.message)).toBeUndefined();
    expect(next.messages.length).toBe(plain[first + 1]?.messages.length);
    expect(next.message.usage.input_tokens).toBeLessThan(plain[first + 1]?.message.usage.input_tokens as number);
    expect(next.message.usage.input_tokens).toBeGreaterThan(SUMMARY_TOKENS);
  });

  it('pauses after compaction when asked: the block alone, then the turn answered from it', async () => {
    const m = start();
    const plan = m.planFor(RUN);
    const pause = { context_management: { edits: [{ ...EDIT.context_management.edits[0], pause_after_compaction: true }] } };
    const turns = await playMessages(m, stream, { betas: EDIT_BETA, ...pause } as Partial<BetaBody>);
    const paused = turns.filter((t) => t.message.stop_reason === 'compaction');
    expect(paused.length).toBeGreaterThan(0);
    expect(paused.every((t) => t.message.content.length === 1 && t.message.content[0]?.type === 'compaction')).toBe(true);
    // A paused turn is answered on the next request: the plan's turns all come, each once.
    expect(turns.filter((t) => t.message.stop_reason !== 'compaction').map((t) => answerOf(t.message))).toEqual(plan.turns.map(planned));
  });

  it('the compaction param (compact-2026-09-04) answers a signed block alone, which stands for the conversation on the next request', async () => {
    const m = start();
    const plan = m.planFor(RUN);
    const plain = await playMessages(m, stream, { betas: EDIT_BETA });
    const at = 5;
    const client = anthropicClient({ modelBaseUrl: m.modelBaseUrl });
    const body = { model: MODEL, max_tokens: 8192, system: INSTRUCTIONS, tools: ANTHROPIC_TOOLS };
    const summary = await createMessage(
      client,
      { ...body, betas: ['compact-2026-09-04'], compaction: { type: 'summarize' }, messages: (plain[at] as AnthropicTurn).messages },
      stream,
    );
    expect(summary.stop_reason).toBe('compaction');
    const block = compactionOf(summary) as Anthropic.Beta.Messages.BetaCompactionBlock;
    expect(block.signature).toMatch(/^lrc1\./);
    const next = await createMessage(
      client,
      {
        ...body,
        betas: ['compact-2026-09-04'],
        messages: [{ role: 'user', content: [block as Anthropic.Beta.Messages.BetaCompactionBlockParam] }],
      },
      stream,
    );
    expect(answerOf(next)).toEqual(planned(plan.turns[at]));
    expect(next.usage.input_tokens).toBeLessThan(plain[at]?.message.usage.input_tokens as number);
    // A summary changed on the way back no longer verifies.
    const tampered = await createMessage(
      client,
      {
        ...body,
        betas: ['compact-2026-09-04'],
        messages: [
          { role: 'user', content: [{ ...(block as Anthropic.Beta.Messages.BetaCompactionBlockParam), content: `${block.content} ` }] },
        ],
      },
      stream,
    ).catch((error: unknown) => error);
    expect(tampered).toBeInstanceOf(Anthropic.BadRequestError);
    expect((tampered as Error).message).toContain('body.messages.0.content.0.signature: not a compaction this provider issued');
  });

  it('refuses context_management without its beta, a trigger under the least, and the param with context_management', async () => {
    const m = start();
    const client = anthropicClient({ modelBaseUrl: m.modelBaseUrl });
    const body = {
      model: MODEL,
      max_tokens: 1024,
      tools: ANTHROPIC_TOOLS,
      messages: [{ role: 'user' as const, content: m.planFor(RUN).userRequest }],
    };
    const failure = (extra: Partial<BetaBody>) =>
      createMessage(client, { ...body, ...extra }, stream).then(
        () => 'answered',
        (error: unknown) =>
          error instanceof Anthropic.BadRequestError ? (error.error as { error: { type: string; message: string } }).error : error,
      );
    expect(await failure({ ...EDIT })).toEqual({
      type: 'invalid_request_error',
      message: 'body.context_management: needs the beta header anthropic-beta: compact-2026-01-12',
    });
    expect(await failure({ betas: EDIT_BETA, ...EDIT })).toBe('answered');
    const low = {
      context_management: { edits: [{ type: 'compact_20260112' as const, trigger: { type: 'input_tokens' as const, value: 1000 } }] },
    };
    expect(await failure({ betas: EDIT_BETA, ...low })).toEqual({
      type: 'invalid_request_error',
      message: 'body.context_management.edits.0.trigger.value: must be an integer of at least 50000, got 1000',
    });
    expect(await failure({ betas: ['compact-2026-09-04'], compaction: { type: 'summarize' }, ...EDIT })).toEqual({
      type: 'invalid_request_error',
      message: 'body.compaction: cannot be combined with context_management',
    });
  });
});

describe('the same seed, the same bytes', () => {
  it('gives the same compaction content and usage for the same plan, seed and request, other content for another seed', async () => {
    const tokens = async (seed: number) => {
      const m = start(seed);
      const turns = await playResponses(m, false, [{ type: 'compaction', compact_threshold: 20_000 }]);
      m.close();
      mocks = undefined;
      return turns.map((t) => [t.compaction?.encrypted_content ?? null, t.usage]);
    };
    const [a, b, c] = [await tokens(7), await tokens(7), await tokens(8)];
    expect(a).toEqual(b);
    expect(a.some(([token]) => token !== null)).toBe(true);
    expect(c.map(([token]) => token)).not.toEqual(a.map(([token]) => token));
  });
});
