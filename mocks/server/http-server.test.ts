import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatResponse } from '../../src/contract/messages.ts';
import { toolOutput } from '../synthetic/tool-output.ts';
import { CHAT_TOOLS } from '../testing/sandbox-tools.ts';
import { DEFAULT_MAX_BODY_BYTES, type MockServer, startMockServer } from './http-server.ts';

const run = promisify(execFile);
let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

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

  it("answers a body past its cap 413, in each provider's error shape, and records it as a refusal", async () => {
    server = await startMockServer({ seed: 9, maxBodyBytes: 4096 });
    const big = { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(10_000) }] };
    const answer = async (url: string) => {
      const response = await fetch(url, { method: 'POST', body: JSON.stringify(big) });
      return { status: response.status, body: await response.json() };
    };
    const openai = { error: expect.objectContaining({ type: 'invalid_request_error', code: 'request_too_large' }) };
    expect(await answer(`${server.modelBaseUrl}/chat/completions`)).toEqual({ status: 413, body: openai });
    expect(await answer(`${server.modelBaseUrl}/responses`)).toEqual({ status: 413, body: openai });
    expect(await answer(`${server.sandboxBaseUrl}/tools/shell`)).toEqual({ status: 413, body: openai });
    for (const path of ['/messages', '/v1/messages']) {
      expect(await answer(`${server.modelBaseUrl}${path}`)).toEqual({
        status: 413,
        body: { type: 'error', error: { type: 'request_too_large', message: expect.stringContaining('4 KiB') } },
      });
    }
    expect(server.recorder.records()).toHaveLength(5);
    expect(server.recorder.records().every((r) => r.status === 413 && r.refusal?.includes('4 KiB'))).toBe(true);
    // Under the cap, a body is read as ever (a 400: this one offers no tools for the turn's calls).
    const small = { model: 'm', messages: [{ role: 'user', content: 'go' }] };
    expect((await fetch(`${server.modelBaseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify(small) })).status).toBe(400);
  });

  it('stops reading a body as it passes the cap: the 413 comes while the client is still sending', async () => {
    server = await startMockServer({ seed: 9, maxBodyBytes: 64 * 1024 });
    const url = new URL(`${server.modelBaseUrl}/chat/completions`);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      // Chunked, no length declared, never ended: a server that waits for the whole body never answers.
      const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
        resolve(response.statusCode);
        request.destroy();
      });
      request.on('error', reject);
      request.write('{"model":"m","messages":[{"role":"user","content":"');
      request.write('x'.repeat(256 * 1024));
      setTimeout(() => {
        request.destroy();
        resolve(undefined);
      }, 5_000).unref();
    });
    expect(status).toBe(413);
  });

  it('has a default cap far above any legitimate request (a 2 MiB Temporal payload), and bounded', () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(64 * 1024 * 1024);
  });
});
