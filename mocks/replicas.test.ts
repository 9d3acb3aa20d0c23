/**
 * Mock replicas: two `longrun mock-server`s of one scenario (seed, shape, faults), over HTTP on
 * loopback, sent the same requests of a run, or the run's requests split between them. What a
 * request alone decides is the same from either; what a replica remembers of a run is not, and
 * each case below shows it (docs/distributed.md#mock-replicas).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BINARY_HEADER } from '../src/contract/run-marker.ts';
import type { FaultProfile } from './faults/fault-profile.ts';
import { type MockServer, RECORDS_PATH, startMockServer } from './server/http-server.ts';
import { driveRun, type Exchange } from './testing/drive-run.ts';
import { ANTHROPIC_TOOLS, CHAT_TOOLS, RESPONSES_TOOLS } from './testing/sandbox-tools.ts';

const SHAPE = { scale: 0.02, screenshots: { share: 0.2 } };
let servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** `count` replicas of one scenario. */
async function replicas(count: number, faults?: FaultProfile): Promise<MockServer[]> {
  const started = await Promise.all(
    Array.from({ length: count }, () => startMockServer({ seed: 5, shape: SHAPE, ...(faults ? { faults } : {}) })),
  );
  servers.push(...started);
  return started;
}

interface Answered {
  status: number;
  retryAfter: string | null;
  body: string;
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Answered> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

/** The exchange sent to `server` instead of the one it was first sent to. */
function sendTo(server: MockServer, exchange: Exchange, first: MockServer): Promise<Answered> {
  return post(exchange.url.replace(first.url, server.url), exchange.request);
}

function agent(server: MockServer, runId: string, turn: number, options: { text?: string; binary?: string } = {}): Promise<Answered> {
  const body = JSON.stringify({
    model: 'agent-model',
    messages: [{ role: 'user', content: options.text ?? 'go' }],
    tools: CHAT_TOOLS,
    metadata: { longrun_run_id: runId, longrun_turn: String(turn), longrun_purpose: 'agent' },
  });
  return post(`${server.modelBaseUrl}/chat/completions`, body, options.binary ? { [BINARY_HEADER]: options.binary } : {});
}

function compaction(server: MockServer, runId: string, turn: number, digest: string, binary?: string): Promise<Answered> {
  const body = JSON.stringify({
    model: 'compactor',
    messages: [
      { role: 'system', content: 'compact' },
      { role: 'user', content: digest },
    ],
    metadata: { longrun_run_id: runId, longrun_turn: String(turn), longrun_purpose: 'compaction' },
  });
  return post(`${server.modelBaseUrl}/chat/completions`, body, binary ? { [BINARY_HEADER]: binary } : {});
}

function tool(server: MockServer, runId: string, turn: number): Promise<Answered> {
  const call = { id: `call-${turn}`, type: 'function', function: { name: 'shell', arguments: '{"seed":1,"bytes":300}' } };
  return post(`${server.sandboxBaseUrl}/tools/shell`, JSON.stringify({ runId, turn, call }));
}

/** Answers as far as a test compares them: status, Retry-After and body. */
const answers = (all: Answered[]) => all.map(({ status, retryAfter, body }) => ({ status, retryAfter, body }));

describe('mock replicas', () => {
  it("give a run's answers byte for byte from any replica, its requests sent whole or split: the model's turns, tool outputs, compaction cards", async () => {
    const [first, whole, left, right] = (await replicas(4)) as [MockServer, MockServer, MockServer, MockServer];
    const runId = 'run-0003';
    const plan = first.planFor(runId);
    const run = await driveRun({ ...first, runId, systemPrompt: plan.systemPrompt, userRequest: plan.userRequest });
    const digest = JSON.stringify(run.messages);
    const card = await compaction(first, runId, run.turns + 1, digest);
    expect(card.status).toBe(200);
    expect(run.exchanges.some((exchange) => exchange.url.includes('/sandbox/'))).toBe(true);
    const heard = [...run.exchanges.map(({ status, response }) => ({ status, retryAfter: null, body: response })), card];

    const again: Answered[] = [];
    for (const exchange of run.exchanges) again.push(await sendTo(whole, exchange, first));
    again.push(await compaction(whole, runId, run.turns + 1, digest));
    expect(answers(again)).toEqual(heard);

    const split: Answered[] = [];
    for (const [index, exchange] of run.exchanges.entries()) split.push(await sendTo(index % 2 ? right : left, exchange, first));
    split.push(await compaction(run.exchanges.length % 2 ? right : left, runId, run.turns + 1, digest));
    expect(answers(split)).toEqual(heard);
  });

  it('answer the other wire formats alike: a Responses id another replica gave chains, an Anthropic stream is the same bytes', async () => {
    const [a, b] = (await replicas(2)) as [MockServer, MockServer];
    const userRequest = a.planFor('run-0004').userRequest;
    const first = JSON.stringify({ model: 'm', input: userRequest, tools: RESPONSES_TOOLS });
    const [fromA, fromB] = [await post(`${a.modelBaseUrl}/responses`, first), await post(`${b.modelBaseUrl}/responses`, first)];
    expect(fromA).toMatchObject({ status: 200 });
    expect(fromB).toEqual(fromA);
    const next = JSON.stringify({
      model: 'm',
      input: 'next',
      tools: RESPONSES_TOOLS,
      previous_response_id: (JSON.parse(fromA.body) as { id: string }).id,
    });
    const chained = await post(`${b.modelBaseUrl}/responses`, next);
    expect(chained).toMatchObject({ status: 200 });
    expect(chained).toEqual(await post(`${a.modelBaseUrl}/responses`, next));
    const messages = JSON.stringify({
      model: 'm',
      max_tokens: 4096,
      stream: true,
      tools: ANTHROPIC_TOOLS,
      messages: [{ role: 'user', content: userRequest }],
    });
    const streamed = await post(`${a.modelBaseUrl}/messages`, messages);
    expect(streamed.body).toContain('event: message_stop');
    expect(await post(`${b.modelBaseUrl}/messages`, messages)).toEqual(streamed);
  });

  it("draw a request's fault the same on every replica, its Retry-After with it, when it is the request's first attempt there", async () => {
    const faults: FaultProfile = {
      seed: 7,
      agent: [
        { fault: { kind: 'http-429', retryAfterSeconds: 30 }, when: { probability: 0.3 } },
        { fault: { kind: 'http-500' }, when: { probability: 0.3 } },
      ],
      sandbox: [{ fault: { kind: 'http-503', retryAfterSeconds: 5 }, when: { probability: 0.4 } }],
    };
    const [a, b] = (await replicas(2, faults)) as [MockServer, MockServer];
    const fromA: Answered[] = [];
    const fromB: Answered[] = [];
    // One request a run and target: a Retry-After window one opens holds no later request.
    for (let run = 0; run < 16; run++) {
      fromA.push(await agent(a, `run-${run}`, 1 + (run % 5)), await tool(a, `run-${run}`, 1 + (run % 3)));
      fromB.push(await agent(b, `run-${run}`, 1 + (run % 5)), await tool(b, `run-${run}`, 1 + (run % 3)));
    }
    expect(answers(fromB)).toEqual(answers(fromA));
    expect(new Set(fromA.map((answer) => `${answer.status} ${answer.retryAfter}`))).toEqual(
      new Set(['200 null', '429 30', '500 null', '503 5']),
    );
  });

  it("remember a run: a retry's fresh draw, a Retry-After window and the calls count are the replica's own, so a split run meets other faults", async () => {
    const [a, b] = (await replicas(2, { seed: 7, agent: [{ fault: { kind: 'http-500' }, when: { probability: 0.5 } }] })) as [
      MockServer,
      MockServer,
    ];
    // A retry on the replica that faulted it is its second attempt, drawn afresh; on another it is a first attempt, drawn as before.
    let shown = false;
    for (let run = 0; run < 20 && !shown; run++) {
      if ((await agent(a, `run-${run}`, 1)).status !== 500 || (await agent(a, `run-${run}`, 1)).status !== 200) continue;
      expect((await agent(b, `run-${run}`, 1)).status).toBe(500);
      shown = true;
    }
    expect(shown).toBe(true);

    const [c, d] = (await replicas(2, { agent: [{ fault: { kind: 'http-429', retryAfterSeconds: 60 }, when: { turns: [2] } }] })) as [
      MockServer,
      MockServer,
    ];
    expect(answers([await agent(c, 'run-1', 2)])).toMatchObject([{ status: 429, retryAfter: '60' }]);
    expect((await agent(c, 'run-1', 3)).status).toBe(429); // within the window it opened
    expect((await agent(d, 'run-1', 3)).status).toBe(200); // a window another replica opened

    const [e, f] = (await replicas(2, { agent: [{ fault: { kind: 'http-500' }, when: { calls: [2] } }] })) as [MockServer, MockServer];
    expect((await agent(e, 'run-1', 1)).status).toBe(200);
    expect((await agent(f, 'run-1', 2)).status).toBe(200); // the fleet's second call, this replica's first
    expect((await agent(e, 'run-1', 2)).status).toBe(500);
  });

  it("hold a compaction's digest to what the replica answered the run: split, a broken digest passes and a good one is refused", async () => {
    const [a, b] = (await replicas(2)) as [MockServer, MockServer];
    const runId = 'run-0002';
    const texts = a.planFor(runId).turns.map((turn) => (typeof turn.message.content === 'string' ? turn.message.content.trim() : ''));
    const turn = texts.findIndex((text, index) => text !== '' && (texts[index + 1] ?? '') !== '') + 1;
    expect(turn).toBeGreaterThan(0);
    const [earlier, newest] = [texts[turn - 1] as string, texts[turn] as string];
    const binary = 'v1';

    // One replica: the digest that leaves out the newest answer is refused, the one that shows it is not.
    await agent(a, runId, turn, { binary });
    await agent(a, runId, turn + 1, { binary });
    const broken = await compaction(a, runId, turn + 2, `[${turn}] assistant\n${earlier}`, binary);
    expect(broken.status).toBe(400);
    expect(broken.body).toContain(`the digest leaves out the assistant text of turn ${turn + 1}`);
    expect((await compaction(a, runId, turn + 2, `[${turn + 1}] assistant\n${newest}`, binary)).status).toBe(200);

    // Split: the replica asked to compact heard only the earlier answer.
    const [c, d] = (await replicas(2)) as [MockServer, MockServer];
    await agent(c, runId, turn, { binary });
    await agent(d, runId, turn + 1, { binary });
    expect((await compaction(c, runId, turn + 2, `[${turn}] assistant\n${earlier}`, binary)).status).toBe(200);
    const good = await compaction(c, runId, turn + 2, `[${turn + 1}] assistant\n${newest}`, binary);
    expect(good.status).toBe(400);
    expect(good.body).toContain(`the digest leaves out the assistant text of turn ${turn}`);
    expect((await compaction(b, runId, turn + 2, 'no answer shown', binary)).status).toBe(200); // a replica that heard none asks nothing
  });

  it(`record only what each answered; ${RECORDS_PATH}?run=ID gives a replica's records of the run to whoever judges it`, async () => {
    const [a, b] = (await replicas(2)) as [MockServer, MockServer];
    await agent(a, 'run-1', 1);
    await agent(b, 'run-1', 2);
    await agent(b, 'run-2', 1);
    await post(`${b.modelBaseUrl}/chat/completions`, '{"not": "a request"}'); // no run told from it
    const read = async (server: MockServer, query: string) => {
      const response = await fetch(`${server.url}${RECORDS_PATH}${query}`);
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(a.recorder.records().map((record) => record.turn)).toEqual([1]);
    expect(await read(a, '?run=run-1')).toMatchObject({ status: 200, body: [{ runId: 'run-1', turn: 1, status: 200 }] });
    expect(await read(b, '?run=run-1')).toMatchObject({
      status: 200,
      body: [
        { runId: 'run-1', turn: 2, status: 200, refusal: null },
        { runId: null, status: 400, refusal: expect.stringMatching(/^body/) },
      ],
    });
    expect(await read(b, '')).toEqual({ status: 400, body: { error: { message: `${RECORDS_PATH}: the query names no run (?run=ID)` } } });
  });
});
