import { afterEach, describe, expect, it } from 'vitest';
import { BYTES_PER_TOKEN, CARD_MAX_BYTES, CARD_SECTIONS } from '../../src/contract/limits.ts';
import type { ChatRequest, ChatResponse, ToolResult } from '../../src/contract/messages.ts';
import { type InProcessMocks, startInProcessMocks } from '../server/in-process.ts';
import { runMessages } from '../synthetic/run-messages.ts';
import { screenshotPng } from '../synthetic/screenshot.ts';
import { driveRun } from '../testing/drive-run.ts';
import { CHAT_TOOLS } from '../testing/sandbox-tools.ts';

const SHAPE = { scale: 0.02, screenshots: { share: 0.2 } };
let mocks: InProcessMocks | undefined;
afterEach(() => mocks?.close());

function start(options: Parameters<typeof startInProcessMocks>[0] = { seed: 7, shape: SHAPE }) {
  mocks = startInProcessMocks(options);
  return mocks;
}

async function chat(body: ChatRequest, base = mocks?.modelBaseUrl, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/chat/completions`, { method: 'POST', body: JSON.stringify(body), headers });
}

describe('model and sandbox handlers', () => {
  it('play a run turn by turn from its plan, and the transcript is the planned context', async () => {
    const { modelBaseUrl, sandboxBaseUrl, planFor, recorder } = start();
    const plan = planFor('run-1');
    const run = await driveRun({
      modelBaseUrl,
      sandboxBaseUrl,
      runId: 'run-1',
      systemPrompt: plan.systemPrompt,
      userRequest: plan.userRequest,
    });
    expect(run.turns).toBe(plan.turns.length);
    expect(JSON.stringify(run.messages)).toBe(JSON.stringify(runMessages(plan)));
    const agent = recorder.records().filter((r) => r.target === 'agent');
    expect(agent.map((r) => r.turn)).toEqual(plan.turns.map((t) => t.turn));
    expect(recorder.records().filter((r) => r.target === 'sandbox')).toHaveLength(plan.turns.flatMap((t) => t.calls).length);
    expect(recorder.records().every((r) => r.status === 200 && r.fault === null)).toBe(true);
  });

  it('derive run and turn from the messages when metadata is missing', async () => {
    const { modelBaseUrl, sandboxBaseUrl } = start();
    const run = await driveRun({
      modelBaseUrl,
      sandboxBaseUrl,
      runId: 'anything',
      systemPrompt: 's',
      userRequest: 'fix it',
      withoutMetadata: true,
    });
    const again = await driveRun({
      modelBaseUrl,
      sandboxBaseUrl,
      runId: 'other',
      systemPrompt: 's',
      userRequest: 'fix it',
      withoutMetadata: true,
    });
    expect(run.turns).toBeGreaterThan(1);
    expect(JSON.stringify(again.messages)).toBe(JSON.stringify(run.messages));
  });

  it('report usage from the request bytes', async () => {
    start();
    const request: ChatRequest = {
      model: 'agent-model',
      messages: [{ role: 'user', content: 'x'.repeat(2_700) }],
      tools: CHAT_TOOLS,
      metadata: { longrun_run_id: 'run-1', longrun_turn: '1', longrun_purpose: 'agent' },
    };
    const body = JSON.stringify(request);
    const answer = (await (await chat(request)).json()) as ChatResponse;
    expect(answer.usage.prompt_tokens).toBe(Math.round(Buffer.byteLength(body) / BYTES_PER_TOKEN));
    expect(answer.usage.total_tokens).toBe(answer.usage.prompt_tokens + answer.usage.completion_tokens);
    expect(answer.model).toBe('agent-model');
  });

  it('stream the same answer as server-sent events', async () => {
    const { planFor } = start();
    const metadata = { longrun_run_id: 'run-2', longrun_turn: '1', longrun_purpose: 'agent' } as const;
    const response = await chat({ model: 'm', messages: [{ role: 'user', content: 'go' }], tools: CHAT_TOOLS, stream: true, metadata });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    let content = '';
    const calls: { id: string; name: string; arguments: string }[] = [];
    let finish: string | null = null;
    for (const event of events.slice(0, -1)) {
      const chunk = JSON.parse(event.replace(/^data: /, ''));
      const choice = chunk.choices[0];
      if (!choice) continue;
      content += choice.delta.content ?? '';
      for (const delta of choice.delta.tool_calls ?? []) {
        calls[delta.index] ??= { id: delta.id, name: delta.function.name, arguments: '' };
        (calls[delta.index] as { arguments: string }).arguments += delta.function.arguments;
      }
      finish = choice.finish_reason ?? finish;
    }
    const planned = planFor('run-2').turns[0]?.message;
    expect(content).toBe(planned?.content);
    expect(calls).toEqual(planned?.tool_calls?.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })));
    expect(finish).toBe('tool_calls');
  });

  it('answer the compaction model, by purpose or by model name, with a valid card of the digest', async () => {
    start({ seed: 7, compactionModels: ['cheap-model'] });
    const digest = 'Digest: PROJ-4821 fixed in src/orders/order-service.ts at commit 3f9a2c1e8b, order ord_8F2kd9aaXX, 1234 ms';
    const instructions = { role: 'system' as const, content: 'Compact into at most 8192 bytes.' };
    for (const request of [
      {
        model: 'cheap-model',
        messages: [instructions, { role: 'user' as const, content: digest }],
        metadata: { longrun_run_id: 'r', longrun_turn: '9', longrun_purpose: 'compaction' as const },
      },
      { model: 'cheap-model', messages: [instructions, { role: 'user' as const, content: digest }] },
    ]) {
      const card = ((await (await chat(request)).json()) as ChatResponse).choices[0]?.message.content ?? '';
      expect(card.split('\n').filter((l) => l.startsWith('## '))).toEqual([...CARD_SECTIONS]);
      expect(Buffer.byteLength(card)).toBeLessThanOrEqual(CARD_MAX_BYTES);
      for (const id of ['PROJ-4821', 'src/orders/order-service.ts', '3f9a2c1e8b', 'ord_8F2kd9aaXX', '1234']) expect(card).toContain(id);
      expect(card).not.toContain('8192');
    }
    expect(mocks?.recorder.records().map((r) => [r.target, r.turn])).toEqual([
      ['compaction', 9],
      ['compaction', null],
    ]);
  });

  it('reject bad requests naming the field', async () => {
    const { sandboxBaseUrl } = start();
    const noModel = await chat({ messages: [{ role: 'user', content: 'x' }] } as unknown as ChatRequest);
    expect(noModel.status).toBe(400);
    expect(((await noModel.json()) as { error: { message: string } }).error.message).toMatch(/^body\.model: /);
    const zeroTurn = await chat({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      metadata: { longrun_run_id: 'r', longrun_turn: '0', longrun_purpose: 'agent' },
    });
    expect(((await zeroTurn.json()) as { error: { message: string } }).error.message).toMatch(/^body\.metadata\.longrun_turn: /);
    const call = { id: 'c1', type: 'function', function: { name: 'shell', arguments: '{"seed":1}' } };
    const tool = await fetch(`${sandboxBaseUrl}/tools/shell`, {
      method: 'POST',
      body: JSON.stringify({ runId: 'r', turn: 1, call }),
    });
    expect(tool.status).toBe(400);
    expect(((await tool.json()) as { error: { message: string } }).error.message).toMatch(/^arguments\.bytes: /);
    const unknown = await fetch(`${sandboxBaseUrl}/tools/teleport`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
  });

  it('refuse a tool a real API refuses, in each format, naming the field', async () => {
    const { modelBaseUrl } = start();
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${modelBaseUrl}/${path}`, { method: 'POST', body: JSON.stringify(body) });
      return { status: response.status, message: ((await response.json()) as { error: { message: string } }).error.message };
    };
    const metadata = { longrun_run_id: 'r', longrun_turn: '1', longrun_purpose: 'agent' };
    const messages = [{ role: 'user', content: 'go' }];
    const object = { type: 'object', properties: {} };
    expect(
      await post('chat/completions', { model: 'm', messages, metadata, tools: [{ type: 'function', function: { name: '' } }] }),
    ).toEqual({
      status: 400,
      message: `body.tools.0.function.name: a tool's name is 1 to 64 letters, digits, _ or -, got ""`,
    });
    const untyped = { type: 'function', function: { name: 'shell', parameters: { properties: {} } } };
    expect(await post('chat/completions', { model: 'm', messages, metadata, tools: [untyped] })).toEqual({
      status: 400,
      message: 'body.tools.0.function.parameters: the arguments of shell must be a JSON Schema of type object',
    });
    const blankType = { type: 'function', function: { name: 'shell', parameters: { type: 'object', properties: { seed: { type: '' } } } } };
    expect(await post('chat/completions', { model: 'm', messages, metadata, tools: [blankType] })).toEqual({
      status: 400,
      message:
        'body.tools.0.function.parameters.properties.seed.type: "" is not a JSON Schema type (string, number, integer, boolean, object, array, null) (in the arguments of shell)',
    });
    const spaced = [{ type: 'web_search' }, { type: 'function', name: 'read file', parameters: object }];
    expect(await post('responses', { model: 'm', input: 'go', metadata, tools: spaced })).toMatchObject({
      message: expect.stringMatching(/^body\.tools\.1\.name: a tool's name/),
    });
    const schemaless = { model: 'm', max_tokens: 100, messages, metadata, tools: [{ name: 'shell' }] };
    expect(await post('messages', schemaless)).toMatchObject({
      message: 'body.tools.0.input_schema: the arguments of shell must be a JSON Schema of type object',
    });
  });

  it('refuse an output token limit each real API refuses: an integer >= 1 (>= 16 for Responses), in its shape, naming the field', async () => {
    const { modelBaseUrl } = start();
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${modelBaseUrl}/${path}`, { method: 'POST', body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const metadata = { longrun_run_id: 'r', longrun_turn: '1', longrun_purpose: 'agent' };
    // Every tool offered, so that the turn's planned calls are not what is refused.
    const chatBody = { model: 'm', messages: [{ role: 'user', content: 'go' }], metadata, tools: CHAT_TOOLS };
    const responsesBody = { model: 'm', input: 'go', metadata, tools: CHAT_TOOLS.map((tool) => ({ type: 'function', ...tool.function })) };
    const refused = (param: string) => ({
      status: 400,
      body: {
        error: expect.objectContaining({ type: 'invalid_request_error', param, message: expect.stringMatching(`^body\\.${param}: `) }),
      },
    });
    for (const bad of [-1, 0, 'lots', 1e308, 2.5]) {
      for (const field of ['max_tokens', 'max_completion_tokens']) {
        expect(await post('chat/completions', { ...chatBody, [field]: bad }), `${field} ${bad}`).toEqual(refused(field));
      }
      expect(await post('responses', { ...responsesBody, max_output_tokens: bad }), `${bad}`).toEqual(refused('max_output_tokens'));
      expect((await post('messages', { model: 'm', max_tokens: bad, messages: chatBody.messages, metadata })).body).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringMatching(/^body\.max_tokens: /) },
      });
    }
    expect(await post('responses', { ...responsesBody, max_output_tokens: 15 })).toEqual(refused('max_output_tokens'));
    // What the APIs take: any integer from their minimum, or none (null too, for OpenAI's).
    expect((await post('chat/completions', { ...chatBody, max_tokens: 1, max_completion_tokens: null })).status).toBe(200);
    expect((await post('responses', { ...responsesBody, max_output_tokens: 16 })).status).toBe(200);
  });

  it('refuse a turn whose planned calls use a tool the request does not offer', async () => {
    const { planFor } = start();
    const planned = planFor('r').turns[0]?.message.tool_calls?.map((call) => call.function.name) ?? [];
    expect(planned.length).toBeGreaterThan(0);
    const ask = async (tools: ChatRequest['tools']) => {
      const request = { model: 'm', messages: [{ role: 'user' as const, content: 'go' }], ...(tools ? { tools } : {}) };
      const metadata = { longrun_run_id: 'r', longrun_turn: '1', longrun_purpose: 'agent' as const };
      const response = await chat({ ...request, metadata });
      return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
    };
    expect(await ask(undefined)).toMatchObject({
      status: 400,
      body: { error: { message: `body.tools: turn 1 of r calls ${planned[0]}, and it offers no tools` } },
    });
    const others = CHAT_TOOLS.filter((tool) => tool.function.name !== planned[0]);
    expect((await ask(others)).body.error?.message).toMatch(new RegExp(`calls ${planned[0]}, and it offers ${others[0]?.function.name}, `));
    expect((await ask(CHAT_TOOLS)).status).toBe(200);
    expect(mocks?.recorder.records().map((r) => [r.runId, r.turn, r.status, r.refusal?.split(',')[0] ?? null])).toEqual([
      ['r', 1, 400, `body.tools: turn 1 of r calls ${planned[0]}`],
      ['r', 1, 400, `body.tools: turn 1 of r calls ${planned[0]}`],
      ['r', 1, 200, null],
    ]);
  });

  it("refuse a compaction digest that does not show the windows of the run's texts, and record the refusal as the run's", async () => {
    const { planFor } = start({ seed: 7 });
    const prompt = planFor('r').systemPrompt;
    const bytes = Buffer.from(prompt);
    expect(bytes.length).toBeGreaterThan(2 * 1_024);
    // Whole characters, the longest within 1,024 bytes: a cut moves off a continuation byte (10xxxxxx).
    const within = (at: number, step: 1 | -1) => {
      while ((bytes[at] ?? 0) >> 6 === 2) at += step;
      return at;
    };
    const head = bytes.subarray(0, within(1_024, -1)).toString();
    const tail = bytes.subarray(within(bytes.length - 1_024, 1)).toString();
    const compact = async (digest: string) => {
      const metadata = { longrun_run_id: 'r', longrun_turn: '1', longrun_purpose: 'compaction' as const };
      const response = await chat({ model: 'm', messages: [{ role: 'user', content: digest }], metadata }, undefined, {
        'x-longrun-binary': 'v1',
      });
      return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
    };
    expect((await compact(`### [0] system\n${head}\n[...]\n${tail}`)).status).toBe(200);
    expect(await compact(`### [0] system\n${prompt}`)).toMatchObject({
      status: 400,
      body: {
        error: {
          message: expect.stringMatching(
            /^body\.messages: the digest of turn 1 of r: the system prompt \(\d+ bytes\): the digest shows more than its head/,
          ),
        },
      },
    });
    expect(mocks?.recorder.records().map((r) => [r.target, r.runId, r.binary, r.status, r.refusal !== null])).toEqual([
      ['compaction', 'r', 'v1', 200, false],
      ['compaction', 'r', 'v1', 400, true],
    ]);
  });

  it("refuse a compaction request that carries a screenshot's bytes, in its digest or as an image", async () => {
    start({ seed: 7 });
    const url = `data:image/png;base64,${screenshotPng(1, 2_000).toString('base64')}`;
    const metadata = { longrun_run_id: 'r', longrun_turn: '1', longrun_purpose: 'compaction' as const };
    const compact = async (content: unknown) => {
      const response = await chat({ model: 'm', messages: [{ role: 'user', content } as ChatRequest['messages'][number]], metadata });
      return [response.status, ((await response.json()) as { error?: { message: string } }).error?.message];
    };
    expect(await compact(`### [3] tool result for call_1\n${url.slice(-1_024)}`)).toEqual([
      400,
      expect.stringMatching(/^body: the compaction request of turn 1 of r: it carries a screenshot's bytes \(the base64 of a PNG's end, /),
    ]);
    expect(
      await compact([
        { type: 'text', text: 'Digest of 4 messages' },
        { type: 'image_url', image_url: { url } },
      ]),
    ).toEqual([400, expect.stringMatching(/PNG's beginning/)]);
  });

  it("refuse a compaction request that names another model than the run's compaction model, when the mocks are told it", async () => {
    const metadata = { longrun_run_id: 'r', longrun_turn: '2', longrun_purpose: 'compaction' as const };
    const digest = { role: 'user' as const, content: 'Digest of 3 messages; 0 screenshots counted, not included.' };
    start({ seed: 7, compactionModels: ['compactor'] });
    const refused = await chat({ model: 'agent-model', messages: [digest], metadata });
    expect([refused.status, ((await refused.json()) as { error: { message: string } }).error.message]).toEqual([
      400,
      'body.model: the compaction request of turn 2 of r names "agent-model"; the run\'s settings name "compactor" for compaction (settings.compaction.model)',
    ]);
    expect((await chat({ model: 'compactor', messages: [digest], metadata })).status).toBe(200);
    await mocks?.close();
    start({ seed: 7 });
    expect((await chat({ model: 'agent-model', messages: [digest], metadata })).status).toBe(200);
  });

  it('answer a screenshot call with a caption and a PNG data URL', async () => {
    const { sandboxBaseUrl } = start();
    const call = {
      id: 'c1',
      type: 'function',
      function: { name: 'screenshot', arguments: '{"seed":3,"bytes":20000,"url":"http://localhost:3000/x"}' },
    };
    const result = (await (
      await fetch(`${sandboxBaseUrl}/tools/screenshot`, {
        method: 'POST',
        body: JSON.stringify({ runId: 'r', turn: 1, call }),
      })
    ).json()) as ToolResult;
    const [caption, image] = result.content as [{ type: 'text'; text: string }, { type: 'image_url'; image_url: { url: string } }];
    expect(caption.text).toContain('http://localhost:3000/x');
    expect(image.image_url.url.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(image.image_url.url.split(',')[1] as string, 'base64').length).toBe(20_000);
  });

  it('never let a request through to the network', async () => {
    start();
    await expect(fetch('http://example.invalid/v1/chat/completions', { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
