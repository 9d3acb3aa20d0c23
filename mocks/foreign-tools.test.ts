/**
 * An unmodified agent's own tools, through the real client libraries: the mock model calls
 * them with arguments that fit their schemas, and its answers carry the bytes the sandbox's
 * outputs would have, so that requests grow turn by turn as with the sandbox's tools.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolResult } from '../src/contract/messages.ts';
import { argumentsProblem } from './handlers/argument-schema.ts';
import { startMockServer } from './server/http-server.ts';
import { type InProcessMocks, startInProcessMocks } from './server/in-process.ts';
import { carriedBytes } from './synthetic/carried-text.ts';
import { createPlayer, openAIClient, type PlayedCall, type PlayerKind, playRun, runTool } from './testing/client-players.ts';
import { GET_WEATHER } from './testing/framework-schemas.ts';
import { CHAT_TOOLS } from './testing/sandbox-tools.ts';

const SHAPE = { scale: 0.05, screenshots: { share: 0.3 }, overrides: { turns: 8 } };
const RUN = 'run-0004';

let mocks: { close(): unknown } | undefined;
afterEach(async () => {
  await mocks?.close();
  mocks = undefined;
});

/** The Temporal sample's weather tool: a few bytes back, whatever it is asked. */
const weather = (call: PlayedCall): Promise<ToolResult> =>
  Promise.resolve({ tool_call_id: call.id, content: `Sunny, 21°C in ${(JSON.parse(call.arguments) as { city: string }).city}` });

/** Each agent request's bytes, turn by turn, for a run played with the given tools. */
async function requestBytes(kind: PlayerKind, own: boolean): Promise<{ bytes: number[]; mocks: InProcessMocks }> {
  const started = startInProcessMocks({ seed: 11, shape: SHAPE });
  mocks = started;
  const player = createPlayer(kind, { modelBaseUrl: started.modelBaseUrl, stream: false, ...(own ? { tools: [GET_WEATHER] } : {}) });
  const userRequest = started.planFor(RUN).userRequest;
  await playRun(player, { sandboxBaseUrl: started.sandboxBaseUrl, runId: RUN, userRequest, ...(own ? { ownTool: weather } : {}) });
  const bytes = started.recorder
    .records()
    .filter((r) => r.target === 'agent')
    .map((r) => {
      expect(r.status).toBe(200);
      return r.requestBytes;
    });
  started.close();
  mocks = undefined;
  return { bytes, mocks: started };
}

describe('an agent with only its own tools, through the openai client', () => {
  it.each(['chat-completions', 'responses'] as const)(
    '%s: every planned call is a get_weather call whose arguments fit its schema, and each answer carries its planned bytes',
    async (kind) => {
      const started = startInProcessMocks({ seed: 11, shape: SHAPE });
      mocks = started;
      const plan = started.planFor(RUN);
      const player = createPlayer(kind, { modelBaseUrl: started.modelBaseUrl, stream: true, tools: [GET_WEATHER] });
      const run = await playRun(player, {
        sandboxBaseUrl: started.sandboxBaseUrl,
        runId: RUN,
        userRequest: plan.userRequest,
        ownTool: weather,
      });
      expect(run.turns).toHaveLength(plan.turns.length);
      run.turns.forEach((played, i) => {
        const planned = plan.turns[i];
        expect(played.calls.map((c) => [c.id, c.name])).toEqual(planned?.calls.map((c) => [c.id, 'get_weather']));
        for (const call of played.calls) expect(argumentsProblem(GET_WEATHER.parameters, JSON.parse(call.arguments))).toBeNull();
        const carried = planned?.calls.reduce((sum, call) => sum + carriedBytes(call), 0) ?? 0;
        expect(Buffer.byteLength(played.text)).toBe(Buffer.byteLength(planned?.message.content ?? '') + carried);
      });
    },
  );

  it.each(['responses', 'messages'] as const)(
    '%s: the requests grow turn by turn as they do with the sandbox tools (within 2% of the sandbox run since turn 1)',
    async (kind) => {
      const sandbox = await requestBytes(kind, false);
      const own = await requestBytes(kind, true);
      expect(own.bytes).toHaveLength(sandbox.bytes.length);
      // The first requests differ by their tools' definitions alone; what matters is what each turn adds.
      const since = (bytes: number[]) => bytes.map((b) => b - (bytes[0] as number));
      const grown = since(own.bytes);
      const plan = own.mocks.planFor(RUN);
      const planned = since(sandbox.bytes);
      expect(planned.at(-1)).toBeGreaterThan(15_000);
      grown.forEach((bytes, i) => {
        const reference = planned[i] as number;
        // Each call's arguments and the weather string differ from the sandbox's: a few hundred bytes a call.
        const calls = plan.turns.slice(0, i).reduce((sum, t) => sum + t.calls.length, 0);
        expect(Math.abs(bytes - reference)).toBeLessThanOrEqual(0.02 * reference + 300 * calls);
      });
    },
  );

  it("is refused (400) when the request offers some of the sandbox's tools but not the planned one, or no tools at all", async () => {
    const started = startInProcessMocks({ seed: 11, shape: SHAPE });
    mocks = started;
    const plan = started.planFor(RUN);
    const first = plan.turns[0]?.calls[0]?.tool as string;
    const client = openAIClient({ modelBaseUrl: started.modelBaseUrl });
    const messages = [{ role: 'user' as const, content: plan.userRequest }];
    const others = CHAT_TOOLS.filter((t) => t.function.name !== first);
    const tools = [...others, { type: 'function' as const, function: GET_WEATHER }];
    const offered = tools.map((t) => t.function.name).join(', ');
    await expect(client.chat.completions.create({ model: 'm', messages, tools })).rejects.toThrow(
      `400 body.tools: turn 1 of ${RUN} calls ${first}, and it offers ${offered}`,
    );
    await expect(client.chat.completions.create({ model: 'm', messages })).rejects.toThrow(`calls ${first}, and it offers no tools`);
    expect(started.recorder.records().map((r) => r.status)).toEqual([400, 400]);
  });
});

describe('an agent tool mapped to the sandbox (toolMap), over HTTP', () => {
  it("plays the planned screenshots as calls to the agent's get_page, whose backend forwards them to the sandbox", async () => {
    const server = await startMockServer({ seed: 11, shape: SHAPE, toolMap: { get_page: 'screenshot' } });
    mocks = server;
    const plan = server.planFor(RUN);
    const getPage = {
      name: 'get_page',
      description: 'Screenshot of a page.',
      parameters: { type: 'object', properties: { url: { type: 'string' } } },
    };
    const player = createPlayer('responses', { modelBaseUrl: server.modelBaseUrl, stream: false, tools: [GET_WEATHER, getPage] });
    // The team's get_page backend, pointed at LONGRUN_SANDBOX_URL: it passes the arguments on as they are.
    const ownTool = (call: PlayedCall, turn: number) =>
      call.name === 'get_page' ? runTool(server.sandboxBaseUrl, RUN, turn, { ...call, name: 'screenshot' }) : weather(call);
    const run = await playRun(player, { sandboxBaseUrl: server.sandboxBaseUrl, runId: RUN, userRequest: plan.userRequest, ownTool });
    const planned = plan.turns.flatMap((t) => t.calls);
    expect(planned.some((c) => c.tool === 'screenshot')).toBe(true);
    const played = run.turns.flatMap((t) => t.calls);
    expect(played.map((c) => c.name)).toEqual(planned.map((c) => (c.tool === 'screenshot' ? 'get_page' : 'get_weather')));
    played.forEach((call, i) => {
      if (call.name === 'get_page') expect(call.arguments).toBe(JSON.stringify(planned[i]?.args));
    });
    const sandbox = server.recorder.records().filter((r) => r.target === 'sandbox');
    expect(sandbox.map((r) => [r.tool, r.status])).toEqual(planned.filter((c) => c.tool === 'screenshot').map(() => ['screenshot', 200]));
  });
});
