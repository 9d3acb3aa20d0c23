import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import type OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startInProcessMocks } from '../../../mocks/server/in-process.ts';
import { FAILURE_TYPE } from '../../contract/failure-types.ts';
import { ACTIVITY, type CallModelResult } from '../../contract/kernel-api.ts';
import type { ChatRequest, Message } from '../../contract/messages.ts';
import { afterProviderCompaction, providerCompaction } from '../context/provider-compaction.ts';
import { buildAgentRequest } from '../context/request.ts';
import { createActivities } from './index.ts';
import { fromResponsesAnswer, toResponsesRequest } from './responses-wire.ts';

const screenshot = 'data:image/png;base64,iVBORw0KGgo=';
const messages: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'fix the build [longrun-run:run-1]' },
  { role: 'compaction', id: 'cmp_1', content: 'lrc1.seal.mac' },
  {
    role: 'assistant',
    content: 'Looking.',
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"seed":1,"bytes":10}' } }],
  },
  {
    role: 'tool',
    tool_call_id: 'call_1',
    content: [
      { type: 'text', text: 'ok' },
      { type: 'image_url', image_url: { url: screenshot } },
    ],
  },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'diff', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: 'call_2', content: 'no changes' },
];
const request: ChatRequest = {
  ...buildAgentRequest({ runId: 'run-1', turn: 3, model: 'agent-model', messages }),
  context_management: [{ type: 'compaction', compact_threshold: 55_555 }],
};

describe('toResponsesRequest', () => {
  it("turns the kernel's messages into Responses input items, the system prompt into instructions, and keeps metadata and context_management", () => {
    // The OpenAI client's own type: the body is one its API takes.
    const body: OpenAI.Responses.ResponseCreateParamsNonStreaming = toResponsesRequest(request);
    expect(body).toEqual({
      model: 'agent-model',
      instructions: 'You are a coding agent.',
      input: [
        { type: 'message', role: 'user', content: 'fix the build [longrun-run:run-1]' },
        { type: 'compaction', id: 'cmp_1', encrypted_content: 'lrc1.seal.mac' },
        { type: 'message', role: 'assistant', content: 'Looking.' },
        { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"seed":1,"bytes":10}' },
        {
          type: 'function_call_output',
          call_id: 'call_1',
          output: [
            { type: 'input_text', text: 'ok' },
            { type: 'input_image', image_url: screenshot, detail: 'auto' },
          ],
        },
        { type: 'function_call', call_id: 'call_2', name: 'diff', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_2', output: 'no changes' },
      ],
      tools: request.tools?.map(({ function: f }) => ({
        type: 'function',
        name: f.name,
        description: f.description,
        parameters: f.parameters,
        strict: false,
      })),
      metadata: { longrun_run_id: 'run-1', longrun_turn: '3', longrun_purpose: 'agent' },
      context_management: [{ type: 'compaction', compact_threshold: 55_555 }],
      store: false,
    });
  });
});

describe('fromResponsesAnswer', () => {
  it("reads the answer's text, function calls, usage and compaction item, and drops the items it does not keep", () => {
    const answer = fromResponsesAnswer(
      {
        id: 'resp_1',
        status: 'completed',
        output: [
          { type: 'compaction', id: 'cmp_2', encrypted_content: 'lrc1.a.b' },
          { type: 'reasoning', id: 'rs_1', summary: [] },
          { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Done', annotations: [] }] },
          { type: 'function_call', id: 'fc_1', call_id: 'call_3', name: 'shell', arguments: '{}', status: 'completed' },
        ],
        usage: { input_tokens: 60_000, output_tokens: 3_100, total_tokens: 63_100, input_tokens_details: { cached_tokens: 0 } },
      },
      'model',
    );
    expect(answer).toEqual({
      message: {
        role: 'assistant',
        content: 'Done',
        tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'shell', arguments: '{}' } }],
      },
      usage: { prompt_tokens: 60_000, completion_tokens: 3_100, total_tokens: 63_100 },
      compaction: { role: 'compaction', id: 'cmp_2', content: 'lrc1.a.b' },
    } satisfies CallModelResult);
  });

  it('refuses, retryably, an answer that is not a response or a compaction item without its content', () => {
    expect(() => fromResponsesAnswer({ choices: [] }, 'model')).toThrow(expect.objectContaining({ type: FAILURE_TYPE.malformedResponse }));
    expect(() => fromResponsesAnswer({ output: [{ type: 'compaction', id: 'cmp_3', encrypted_content: '' }] }, 'model')).toThrow(
      'model answered an unexpected body: output.0.encrypted_content: Too small: expected string to have >=1 characters',
    );
  });
});

describe('call_model with provider-side compaction, against the mocks', () => {
  let mocks: ReturnType<typeof startInProcessMocks> | undefined;
  afterEach(() => mocks?.close());

  it('goes to /responses, gets a compaction item past the threshold, and the conversation after it is taken and billed less', async () => {
    mocks = startInProcessMocks({ seed: 1103, shape: { screenshots: { share: 0 }, overrides: { turns: 12, bytesPerTurn: 12_288 } } });
    const activities = createActivities({ modelBaseUrl: mocks.modelBaseUrl, sandboxBaseUrl: mocks.sandboxBaseUrl });
    const env = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });
    const run = <I, O>(activity: (input: I) => Promise<O>, input: I): Promise<O> => env.run(activity, input);
    const plan = mocks.planFor('run-1');
    const management = providerCompaction({ compactionTriggerBytes: 60_000 });
    let conversation: Message[] = [
      { role: 'system', content: plan.systemPrompt },
      { role: 'user', content: plan.userRequest },
    ];
    const compactedAt: number[] = [];
    for (let turn = 1; turn <= 12; turn++) {
      const sent = {
        ...buildAgentRequest({ runId: 'run-1', turn, model: 'agent-model', messages: conversation }),
        context_management: [management],
      };
      const { message, compaction } = await run(activities[ACTIVITY.callModel], { runId: 'run-1', turn, request: sent });
      if (compaction) {
        compactedAt.push(turn);
        conversation = afterProviderCompaction(conversation, compaction);
      }
      const results = await Promise.all(
        (message.tool_calls ?? []).map((call) => run(activities[ACTIVITY.runTool], { runId: 'run-1', turn, call })),
      );
      conversation = [
        ...conversation,
        message,
        ...results.map((r): Message => ({ role: 'tool', tool_call_id: r.tool_call_id, content: r.content })),
      ];
      if (!message.tool_calls) break;
    }
    const agent = mocks.recorder.records().filter((r) => r.target === 'agent');
    expect(agent.every((r) => r.status === 200 && r.refusal === null)).toBe(true);
    expect(compactedAt.length).toBeGreaterThan(0);
    // Past the threshold each request compacts; the one after it sends only what followed the item.
    const first = compactedAt[0] as number;
    const [compacting, after] = [agent[first - 1], agent[first]];
    if (!compacting || !after) throw new Error('the requests around the compaction are missing');
    expect(compacting.requestBytes / 2.7).toBeGreaterThan(management.compact_threshold);
    expect(after.requestBytes).toBeLessThan(compacting.requestBytes / 2);
    // The mock bills the carried compaction as its summary, not by its bytes: the record says so.
    expect(after.inputTokens).toBeGreaterThan(Math.round(after.requestBytes / 2.7));
  }, 60_000);
});
