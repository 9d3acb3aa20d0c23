import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatResponse } from '../../src/contract/messages.ts';
import { toolOutput } from '../synthetic/tool-output.ts';
import { CHAT_TOOLS } from '../testing/sandbox-tools.ts';
import { type MockServer, startMockServer } from './http-server.ts';

const run = promisify(execFile);
let server: MockServer | undefined;
afterEach(async () => server?.close());

/** Posts from another node process and prints `status body`, or the error's name. */
async function postFromChild(url: string, body: unknown): Promise<string> {
  const script = `fetch(process.argv[1], { method: 'POST', body: process.argv[2] })
    .then(async (r) => console.log(r.status + ' ' + (await r.text())), (e) => console.log('error ' + e.name))`;
  const { stdout } = await run(process.execPath, ['-e', script, url, JSON.stringify(body)]);
  return stdout.trim();
}

describe('startMockServer', () => {
  it('answers a model request from another process on loopback', async () => {
    server = await startMockServer({ seed: 9, shape: { scale: 0.02 } });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const metadata = { longrun_run_id: 'run-1', longrun_turn: '1', longrun_purpose: 'agent' };
    const out = await postFromChild(`${server.modelBaseUrl}/chat/completions`, {
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      tools: CHAT_TOOLS,
      metadata,
    });
    const [status, ...rest] = out.split(' ');
    expect(status).toBe('200');
    const answer = JSON.parse(rest.join(' ')) as ChatResponse;
    expect(answer.choices[0]?.message).toEqual(server.planFor('run-1').turns[0]?.message);
    expect(server.recorder.records()).toMatchObject([{ target: 'agent', runId: 'run-1', turn: 1, status: 200 }]);
  });

  it('counts the requests it has not answered yet, and tells a listener each one it records', async () => {
    server = await startMockServer({ seed: 9, shape: { scale: 0.02 }, faults: { agent: [{ fault: { kind: 'latency', ms: 2_000 } }] } });
    const heard: unknown[] = [];
    server.recorder.onRecord((record) => heard.push({ runId: record.runId, turn: record.turn }));
    const metadata = { longrun_run_id: 'run-1', longrun_turn: '1', longrun_purpose: 'agent' };
    const answered = postFromChild(`${server.modelBaseUrl}/chat/completions`, {
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      tools: CHAT_TOOLS,
      metadata,
    });
    await vi.waitFor(() => expect(server?.requestsInFlight()).toBe(1), { timeout: 10_000 });
    expect(heard).toEqual([]);
    expect(await answered).toMatch(/^200 /);
    await vi.waitFor(() => expect(server?.requestsInFlight()).toBe(0), { timeout: 10_000 });
    expect(heard).toEqual([{ runId: 'run-1', turn: 1 }]);
  });

  it('serves the sandbox, drops the connection for a reset and 404s what it does not mock', async () => {
    server = await startMockServer({
      seed: 9,
      faults: { sandbox: [{ fault: { kind: 'reset' }, when: { turns: [2] } }] },
    });
    const call = (turn: number) => ({
      runId: 'r',
      turn,
      call: { id: `c${turn}`, type: 'function', function: { name: 'shell', arguments: '{"seed":1,"bytes":500}' } },
    });
    const ok = await postFromChild(`${server.sandboxBaseUrl}/tools/shell`, call(1));
    expect(ok.startsWith('200 ')).toBe(true);
    expect(Buffer.byteLength((JSON.parse(ok.slice(4)) as { content: string }).content)).toBe(500);
    expect(await postFromChild(`${server.sandboxBaseUrl}/tools/shell`, call(2))).toBe('error TypeError');
    expect((await postFromChild(`${server.url}/elsewhere`, {})).startsWith('404 ')).toBe(true);
  });

  it('carries non-ASCII tool outputs over HTTP intact, lone surrogates included (as JSON escapes)', async () => {
    server = await startMockServer({ seed: 9 });
    const args = { seed: 4, bytes: 20_000, format: 'listing' as const, multibyte: 0.5, loneSurrogates: 0.05 };
    const expected = toolOutput('list_files', args) as string;
    expect(expected).toMatch(/[\udc80-\udcff]/);
    const call = { id: 'c1', type: 'function', function: { name: 'list_files', arguments: JSON.stringify(args) } };
    const out = await postFromChild(`${server.sandboxBaseUrl}/tools/list_files`, { runId: 'r', turn: 1, call });
    expect(out.startsWith('200 ')).toBe(true);
    expect(out).toMatch(/\\udc[89a-f][0-9a-f]/);
    const content = (JSON.parse(out.slice(4)) as { content: string }).content;
    expect(content).toBe(expected);
    expect(Buffer.byteLength(content)).toBe(20_000);
  });

  it('ends a hanging answer when the client hangs up', async () => {
    server = await startMockServer({ seed: 9, faults: { agent: [{ fault: { kind: 'timeout', maxHangMs: 60_000 } }] } });
    const metadata = { longrun_run_id: 'run-1', longrun_turn: '1', longrun_purpose: 'agent' };
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'go' }], tools: CHAT_TOOLS, metadata });
    await expect(
      fetch(`${server.modelBaseUrl}/chat/completions`, { method: 'POST', body, signal: AbortSignal.timeout(100) }),
    ).rejects.toThrow();
    await vi.waitFor(() => expect(server?.recorder.records()).toMatchObject([{ fault: 'timeout', status: 0 }]), {
      timeout: 5_000,
    });
  });
});
