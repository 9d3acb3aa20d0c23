import { afterEach, describe, expect, it, vi } from 'vitest';
import { CARD_MAX_BYTES, CARD_SECTIONS } from '../../src/contract/limits.ts';
import type { ChatRequest, ChatResponse } from '../../src/contract/messages.ts';
import { type InProcessMocks, startInProcessMocks } from '../server/in-process.ts';
import { CHAT_TOOLS } from '../testing/sandbox-tools.ts';
import type { FaultProfile } from './fault-profile.ts';
import { parseFaultProfile } from './fault-profile.ts';

let mocks: InProcessMocks | undefined;
afterEach(() => {
  mocks?.close();
  vi.useRealTimers();
});

function start(faults: FaultProfile) {
  mocks = startInProcessMocks({ seed: 3, shape: { scale: 0.02 }, faults });
  return mocks;
}

function agent(turn: number, options: { runId?: string; stream?: boolean; signal?: AbortSignal } = {}): Promise<Response> {
  const body: ChatRequest = {
    model: 'agent-model',
    messages: [{ role: 'user', content: 'go' }],
    tools: CHAT_TOOLS,
    stream: options.stream,
    metadata: { longrun_run_id: options.runId ?? 'run-1', longrun_turn: String(turn), longrun_purpose: 'agent' },
  };
  return fetch(`${mocks?.modelBaseUrl}/chat/completions`, {
    method: 'POST',
    body: JSON.stringify(body),
    signal: options.signal,
  });
}

function compaction(): Promise<Response> {
  const body: ChatRequest = {
    model: 'cheap',
    messages: [
      { role: 'system', content: 'compact' },
      { role: 'user', content: 'src/a/b.ts ord_12345678 deadbeef01' },
    ],
    metadata: { longrun_run_id: 'run-1', longrun_turn: '4', longrun_purpose: 'compaction' },
  };
  return fetch(`${mocks?.modelBaseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify(body) });
}

function tool(turn: number): Promise<Response> {
  const call = {
    id: `call-${turn}`,
    type: 'function',
    function: { name: 'shell', arguments: '{"seed":1,"bytes":100}' },
  };
  return fetch(`${mocks?.sandboxBaseUrl}/tools/shell`, {
    method: 'POST',
    body: JSON.stringify({ runId: 'run-1', turn, call }),
  });
}

const lastRecord = () => mocks?.recorder.records().at(-1);

describe('faults on demand, seen through fetch', () => {
  it('429 with Retry-After, 500 and 503', async () => {
    start({
      agent: [
        { fault: { kind: 'http-429', retryAfterSeconds: 7 }, when: { turns: [1] } },
        { fault: { kind: 'http-500' }, when: { turns: [2] } },
        { fault: { kind: 'http-503', retryAfterSeconds: 2 }, when: { turns: [3] } },
      ],
    });
    // A run of its own for each: a run told to come back later is refused until then (below).
    const limited = await agent(1, { runId: 'run-1' });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);
    expect(lastRecord()).toMatchObject({ fault: 'http-429', status: 429, turn: 1 });
    expect((await agent(2, { runId: 'run-2' })).status).toBe(500);
    const unavailable = await agent(3, { runId: 'run-3' });
    expect([unavailable.status, unavailable.headers.get('retry-after')]).toEqual([503, '2']);
    expect((await agent(4, { runId: 'run-4' })).status).toBe(200);
  });

  it('refuses a run that comes back before its Retry-After the same way, as a real rate limit does, and that run alone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    start({ agent: [{ fault: { kind: 'http-429', retryAfterSeconds: 2 }, when: { runIds: ['run-1'], attempts: [1] } }] });
    expect((await agent(1)).status).toBe(429);
    // Its second attempt would pass; it comes 1 ms later, as a client reading seconds as milliseconds would.
    vi.advanceTimersByTime(1);
    const early = await agent(1);
    expect([early.status, early.headers.get('retry-after')]).toEqual([429, '2']);
    expect(lastRecord()).toMatchObject({ fault: 'http-429', turn: 1 });
    expect((await agent(5, { runId: 'run-2' })).status).toBe(200); // another run, inside run-1's window, is not held back
    vi.advanceTimersByTime(1_999);
    expect((await agent(1)).status).toBe(200);
  });

  it('latency holds the answer back until its delay has passed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    start({ agent: [{ fault: { kind: 'latency', ms: 5_000 } }] });
    let settled = false;
    const pending = agent(1).then((r) => {
      settled = true;
      return r;
    });
    await vi.advanceTimersByTimeAsync(4_900);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect((await pending).status).toBe(200);
    expect(lastRecord()).toMatchObject({ fault: 'latency', status: 200 });
  });

  it('a timeout hangs until the client aborts, or answers 504 at its bound', async () => {
    start({
      agent: [
        { fault: { kind: 'timeout', maxHangMs: 60_000 }, when: { turns: [1] } },
        { fault: { kind: 'timeout', maxHangMs: 10 }, when: { turns: [2] } },
      ],
    });
    const client = new AbortController();
    const hanging = agent(1, { signal: client.signal });
    setTimeout(() => client.abort(), 20);
    await expect(hanging).rejects.toThrow(/abort/i);
    // Far sooner than the 60 s bound: the hang ended because the client went away.
    await vi.waitFor(() => expect(lastRecord()).toMatchObject({ fault: 'timeout', status: 0, turn: 1 }), {
      timeout: 5_000,
    });
    expect((await agent(2)).status).toBe(504);
  });

  it('a reset is a network error', async () => {
    start({ sandbox: [{ fault: { kind: 'reset' } }] });
    await expect(tool(1)).rejects.toThrow(TypeError);
    expect(lastRecord()).toMatchObject({ target: 'sandbox', fault: 'reset', status: 0 });
  });

  it('malformed JSON and truncated streams break the body, not the status', async () => {
    start({
      agent: [
        { fault: { kind: 'malformed-json' }, when: { turns: [1] } },
        { fault: { kind: 'truncated-stream' }, when: { turns: [2, 3] } },
      ],
    });
    const malformed = await agent(1);
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow(SyntaxError);
    const stream = await (await agent(2, { stream: true })).text();
    expect(stream.startsWith('data: {')).toBe(true);
    expect(stream).not.toContain('[DONE]');
    expect(stream).not.toContain('"finish_reason":"');
    await expect((await agent(3)).json()).rejects.toThrow(SyntaxError);
    const whole = await (await agent(4, { stream: true })).text();
    expect(whole.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('an oversized card and a card missing a section', async () => {
    start({
      compaction: [
        { fault: { kind: 'oversized-card' }, when: { calls: [1] } },
        { fault: { kind: 'card-missing-section', section: '## Verified' }, when: { calls: [2] } },
      ],
    });
    const card = async () => ((await (await compaction()).json()) as ChatResponse).choices[0]?.message.content ?? '';
    const headings = (text: string) => text.split('\n').filter((l) => l.startsWith('## '));
    const oversized = await card();
    expect(Buffer.byteLength(oversized)).toBeGreaterThan(CARD_MAX_BYTES);
    expect(headings(oversized)).toEqual([...CARD_SECTIONS]);
    expect(headings(await card())).toEqual(CARD_SECTIONS.filter((s) => s !== '## Verified'));
    const fine = await card();
    expect(Buffer.byteLength(fine)).toBeLessThanOrEqual(CARD_MAX_BYTES);
    expect(headings(fine)).toEqual([...CARD_SECTIONS]);
    expect(mocks?.recorder.records().map((r) => r.fault)).toEqual(['oversized-card', 'card-missing-section', null]);
  });

  it('untidy cards as chat models write them: a preamble, headings ending in spaces, within the card limit', async () => {
    start({
      compaction: [
        { fault: { kind: 'card-untidy', style: 'preamble' }, when: { calls: [1] } },
        { fault: { kind: 'card-untidy', style: 'trailing-spaces' }, when: { calls: [2] } },
      ],
    });
    const card = async () => ((await (await compaction()).json()) as ChatResponse).choices[0]?.message.content ?? '';
    const headings = (text: string) => text.split('\n').filter((l) => l.startsWith('## '));
    const preamble = await card();
    expect(preamble.startsWith('Here is the state card:\n\n## Task\n')).toBe(true);
    expect(headings(preamble)).toEqual([...CARD_SECTIONS]);
    expect(Buffer.byteLength(preamble)).toBeLessThanOrEqual(CARD_MAX_BYTES);
    const spaced = await card();
    expect(headings(spaced)).toEqual(CARD_SECTIONS.map((s) => `${s}  `));
    expect(Buffer.byteLength(spaced)).toBeLessThanOrEqual(CARD_MAX_BYTES);
    expect(mocks?.recorder.records().map((r) => r.fault)).toEqual(['card-untidy', 'card-untidy']);
  });

  it('strikes by turn, by call count and by attempt, per target', async () => {
    start({
      agent: [{ fault: { kind: 'http-500' }, when: { attempts: [1, 2] } }],
      sandbox: [{ fault: { kind: 'http-503' }, when: { calls: [2] } }],
    });
    expect([(await agent(1)).status, (await agent(1)).status, (await agent(1)).status]).toEqual([500, 500, 200]);
    expect((await agent(2)).status).toBe(500);
    expect([(await tool(1)).status, (await tool(2)).status, (await tool(3)).status]).toEqual([200, 503, 200]);
  });

  it('strikes by seeded probability: the same requests fail for the same seed', async () => {
    const failures = async (seed: number) => {
      start({ seed, agent: [{ fault: { kind: 'http-500' }, when: { probability: 0.3 } }] });
      const statuses: number[] = [];
      for (let turn = 1; turn <= 200; turn++) statuses.push((await agent(turn)).status);
      mocks?.close();
      return statuses.map((s, i) => (s === 500 ? i + 1 : 0)).filter(Boolean);
    };
    const first = await failures(11);
    expect(first.length).toBeGreaterThan(40);
    expect(first.length).toBeLessThan(80);
    expect(await failures(11)).toEqual(first);
    expect(await failures(12)).not.toEqual(first);
  });

  it('rejects a bad profile naming the field', () => {
    expect(() => parseFaultProfile({ agent: [{ fault: { kind: 'oversized-card' } }] })).toThrow(
      'faults.agent.0.fault.kind: oversized-card applies to the compaction model only',
    );
    expect(() => parseFaultProfile({ sandbox: [{ fault: { kind: 'latency' } }] })).toThrow(/^faults\.sandbox\.0\.fault\.ms: /);
    expect(() => parseFaultProfile({ agent: [{ fault: { kind: 'http-500' }, when: { probability: 2 } }] })).toThrow(
      /^faults\.agent\.0\.when\.probability: /,
    );
  });
});

describe('model-only faults', () => {
  it('are refused on the sandbox, naming the field', () => {
    expect(() => parseFaultProfile({ sandbox: [{ fault: { kind: 'overloaded' } }] })).toThrow(
      'faults.sandbox.0.fault.kind: overloaded applies to the model only',
    );
    expect(() => parseFaultProfile({ sandbox: [{ fault: { kind: 'context-length-exceeded' } }] })).toThrow(
      /^faults\.sandbox\.0\.fault\.kind: /,
    );
    expect(() => parseFaultProfile({ agent: [{ fault: { kind: 'context-length-exceeded', maxTokens: 0 } }] })).toThrow(
      /^faults\.agent\.0\.fault\.maxTokens: /,
    );
  });

  it('a context window lets smaller requests through to the next rule', async () => {
    start({
      agent: [{ fault: { kind: 'context-length-exceeded', maxTokens: 1_000 } }, { fault: { kind: 'http-500' }, when: { turns: [2] } }],
    });
    expect((await agent(1)).status).toBe(200);
    expect((await agent(2)).status).toBe(500);
    const huge: ChatRequest = {
      model: 'agent-model',
      messages: [{ role: 'user', content: 'x'.repeat(3_000) }],
      tools: CHAT_TOOLS,
      metadata: { longrun_run_id: 'run-1', longrun_turn: '3', longrun_purpose: 'agent' },
    };
    const refused = await fetch(`${mocks?.modelBaseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify(huge) });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('context_length_exceeded');
    expect(lastRecord()).toMatchObject({ fault: 'context-length-exceeded', status: 400, turn: 3 });
  });
});
