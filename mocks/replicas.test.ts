/**
 * Mock replicas: two `longrun mock-server`s of one scenario (seed, shape, faults), over HTTP on
 * loopback, sent the same requests of a run, or the run's requests split between them. What a
 * request alone decides is the same from either; what a replica remembers of a run is not, and
 * each case below shows it (docs/distributed.md#mock-replicas). A fleet given its peers answers
 * each run from one owner, so a split run meets what one replica gives it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BINARY_HEADER } from '../src/contract/run-marker.ts';
import type { FaultProfile } from './faults/fault-profile.ts';
import { type MockServer, RECORDS_PATH, startMockServer } from './server/http-server.ts';
import { runOwner } from './server/run-owner.ts';
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

/** Ports free a moment ago: a fleet's addresses must be known before its replicas start. */
async function freePorts(count: number): Promise<number[]> {
  const probes = Array.from({ length: count }, () => createServer());
  await Promise.all(probes.map((probe) => new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))));
  const ports = probes.map((probe) => (probe.address() as AddressInfo).port);
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
  return ports;
}

/** `count` replicas of one scenario that know each other (`peers`); `dead` more addresses listed that nothing answers. */
async function fleet(count: number, faults?: FaultProfile, dead = 0): Promise<{ replicas: MockServer[]; dead: string[] }> {
  const all = (await freePorts(count + dead)).map((port) => `http://127.0.0.1:${port}`);
  const started = await Promise.all(
    all
      .slice(0, count)
      .map((self) =>
        startMockServer({ seed: 5, shape: SHAPE, port: Number(new URL(self).port), peers: { self, all }, ...(faults ? { faults } : {}) }),
      ),
  );
  servers.push(...started);
  return { replicas: started, dead: all.slice(count) };
}

interface Answered {
  status: number;
  retryAfter: string | null;
  body: string;
}

async function post(url: string, body: string, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Answered> {
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    ...(signal ? { signal } : {}),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

/** The exchange sent to `server` instead of the one it was first sent to. */
function sendTo(server: MockServer, exchange: Exchange, first: MockServer): Promise<Answered> {
  return post(exchange.url.replace(first.url, server.url), exchange.request);
}

function agent(
  server: MockServer,
  runId: string,
  turn: number,
  options: { text?: string; binary?: string; signal?: AbortSignal } = {},
): Promise<Answered> {
  const body = JSON.stringify({
    model: 'agent-model',
    messages: [{ role: 'user', content: options.text ?? 'go' }],
    tools: CHAT_TOOLS,
    metadata: { longrun_run_id: runId, longrun_turn: String(turn), longrun_purpose: 'agent' },
  });
  return post(`${server.modelBaseUrl}/chat/completions`, body, options.binary ? { [BINARY_HEADER]: options.binary } : {}, options.signal);
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

type Send = (server: MockServer) => Promise<Answered>;

/** The requests sent in turn, the i-th to the i-th replica (round the list). */
async function alternately(to: MockServer[], sends: Send[]): Promise<Answered[]> {
  const all: Answered[] = [];
  for (const [index, send] of sends.entries()) all.push(await send(to[index % to.length] as MockServer));
  return answers(all);
}

/** What one replica answers the requests, what three split them answer alone, and what a fleet of three answers. */
async function oneSplitFleet(sends: Send[], faults?: FaultProfile) {
  const one = await alternately(await replicas(1, faults), sends);
  const split = await alternately(await replicas(3, faults), sends);
  const peered = await alternately((await fleet(3, faults)).replicas, sends);
  return { one, split, peered };
}

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

/** vi.waitFor gives up after 1 s by default; a loaded machine can take longer to pass a request on. */
const PATIENT = { timeout: 30_000, interval: 50 };

describe('a mock fleet given its peers', () => {
  it("answers a split run's retry as its next attempt, as one replica does", async () => {
    const faults: FaultProfile = { seed: 7, agent: [{ fault: { kind: 'http-500' }, when: { probability: 0.5 } }] };
    // A run whose first attempt faults and whose retry, drawn afresh, does not.
    const [probe] = (await replicas(1, faults)) as [MockServer];
    let runId = '';
    for (let run = 0; run < 20 && !runId; run++) {
      if ((await agent(probe, `run-${run}`, 1)).status === 500 && (await agent(probe, `run-${run}`, 1)).status === 200)
        runId = `run-${run}`;
    }
    expect(runId).not.toBe('');
    const retry: Send = (server) => agent(server, runId, 1);
    const { one, split, peered } = await oneSplitFleet([retry, retry], faults);
    expect(one.map((answer) => answer.status)).toEqual([500, 200]);
    expect(split.map((answer) => answer.status)).toEqual([500, 500]);
    expect(peered).toEqual(one);
  });

  it('holds a split run to the Retry-After window its owner opened, as one replica does', async () => {
    const faults: FaultProfile = { agent: [{ fault: { kind: 'http-429', retryAfterSeconds: 60 }, when: { turns: [2] } }] };
    const { one, split, peered } = await oneSplitFleet(
      [(server) => agent(server, 'run-1', 2), (server) => agent(server, 'run-1', 3)],
      faults,
    );
    expect(one).toMatchObject([
      { status: 429, retryAfter: '60' },
      { status: 429, retryAfter: '60' },
    ]);
    expect(split).toMatchObject([{ status: 429 }, { status: 200 }]);
    expect(peered).toEqual(one);
  });

  it("holds a split run's compaction digest to every answer of the run, as one replica does", async () => {
    const [probe] = (await replicas(1)) as [MockServer];
    const runId = 'run-0002';
    const texts = probe.planFor(runId).turns.map((turn) => (typeof turn.message.content === 'string' ? turn.message.content.trim() : ''));
    const turn = texts.findIndex((text, index) => text !== '' && (texts[index + 1] ?? '') !== '') + 1;
    expect(turn).toBeGreaterThan(0);
    const binary = 'v1';
    const sends: Send[] = [
      (server) => agent(server, runId, turn, { binary }),
      (server) => agent(server, runId, turn + 1, { binary }),
      (server) => compaction(server, runId, turn + 2, `[${turn}] assistant\n${texts[turn - 1]}`, binary),
      (server) => compaction(server, runId, turn + 2, `[${turn + 1}] assistant\n${texts[turn]}`, binary),
    ];
    const { one, split, peered } = await oneSplitFleet(sends);
    expect(one.map((answer) => answer.status)).toEqual([200, 200, 400, 200]);
    expect(one[2]?.body).toContain(`the digest leaves out the assistant text of turn ${turn + 1}`);
    expect(split.map((answer) => answer.status)).toEqual([200, 200, 200, 400]);
    expect(peered).toEqual(one);
  });

  it(`keeps a run's records on its owner alone, whichever replica it was sent to (${RECORDS_PATH}?run=ID)`, async () => {
    const { replicas: peered } = await fleet(3);
    for (const [index, server] of peered.entries()) await agent(server, 'run-7', index + 1);
    await tool(peered[1] as MockServer, 'run-7', 1);
    const owner = runOwner(
      'run-7',
      peered.map((server) => server.url),
    );
    for (const server of peered) {
      const records = (await (await fetch(`${server.url}${RECORDS_PATH}?run=run-7`)).json()) as { turn: number; target: string }[];
      expect(records.map((record) => `${record.target} ${record.turn}`)).toEqual(
        server.url === owner ? ['agent 1', 'agent 2', 'agent 3', 'sandbox 1'] : [],
      );
    }
  });

  it("passes an SSE stream through as the owner sends it, and an owner's dropped connection as a dropped connection", async () => {
    const messages = (server: MockServer, text: string) =>
      post(
        `${server.modelBaseUrl}/messages`,
        JSON.stringify({ model: 'm', max_tokens: 4096, stream: true, tools: ANTHROPIC_TOOLS, messages: [{ role: 'user', content: text }] }),
      );
    const [alone] = (await replicas(1)) as [MockServer];
    const text = alone.planFor('run-0004').userRequest;
    const streamed = await messages(alone, text);
    expect(streamed.body).toContain('event: message_stop');
    const { replicas: peered } = await fleet(3);
    for (const server of peered) expect(await messages(server, text)).toEqual(streamed);
    // Each was answered by the anonymous run's owner: two of the three were forwarded.
    expect(peered.map((server) => server.recorder.records().length).sort()).toEqual([0, 0, 3]);

    const { replicas: dropping } = await fleet(2, { agent: [{ fault: { kind: 'reset' }, when: { turns: [1] } }] });
    for (const server of dropping) await expect(agent(server, 'run-1', 1)).rejects.toThrow('fetch failed');
    expect((await agent(dropping[0] as MockServer, 'run-1', 2)).status).toBe(200); // the fault was the owner's, and only its
  });

  it('aborts the forwarded request when its client hangs up, which ends a hanging fault on the owner', async () => {
    const { replicas: peered } = await fleet(2, { agent: [{ fault: { kind: 'timeout', maxHangMs: 600_000 }, when: { turns: [1] } }] });
    const owner = peered.find((server) => server.url === runOwner('run-1', [peered[0]?.url ?? '', peered[1]?.url ?? ''])) as MockServer;
    const forwarder = peered.find((server) => server !== owner) as MockServer;
    const hangUp = new AbortController();
    const sent = agent(forwarder, 'run-1', 1, { signal: hangUp.signal });
    await vi.waitFor(() => expect(owner.requestsInFlight()).toBe(1), PATIENT);
    expect(forwarder.requestsInFlight()).toBe(1);
    hangUp.abort();
    await expect(sent).rejects.toThrow('aborted');
    await vi.waitFor(() => expect(owner.requestsInFlight()).toBe(0), PATIENT);
  });

  it('answers 502 naming the owner when the owner cannot be reached, in the shape of the API at that path, and never answers in its place', async () => {
    const { replicas: alive, dead } = await fleet(1, undefined, 1);
    const [server] = alive as [MockServer];
    const [gone] = dead as [string];
    const all = [server.url, gone];
    const runId = Array.from({ length: 50 }, (_, index) => `run-${index}`).find((run) => runOwner(run, all) === gone) as string;
    expect(runId).toBeDefined();
    const chat = await agent(server, runId, 1);
    expect(chat.status).toBe(502);
    expect(JSON.parse(chat.body)).toMatchObject({
      error: {
        type: 'bad_gateway',
        message: expect.stringContaining(`the mock replica ${gone} that owns this run could not be reached`),
      },
    });
    const marked = JSON.stringify({
      model: 'm',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'go' }],
      metadata: { longrun_run_id: runId, longrun_turn: '1', longrun_purpose: 'agent' },
    });
    const anthropic = await post(`${server.modelBaseUrl}/messages`, marked);
    expect(anthropic.status).toBe(502);
    expect(JSON.parse(anthropic.body)).toMatchObject({
      type: 'error',
      error: { type: 'api_error', message: expect.stringContaining(gone) },
    });
    expect((await tool(server, runId, 1)).status).toBe(502);
    expect(server.recorder.records()).toEqual([]);
  });
});
