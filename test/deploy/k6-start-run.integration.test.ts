/**
 * The k6 request module starts a real run through the embedded server's HTTP API: the kernel
 * (binary v1) runs it on an in-process worker against the mocks and completes it. The compose
 * file's worker health check is run against the same server.
 */
import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockProvider, type MockProvider } from '../../mocks/index.ts';
import {
  describeRunRequest,
  isClosed,
  readRunStatus,
  readStartResponse,
  runInput,
  startRunRequest,
} from '../../scenarios/k6/lib/start-run.js';
import type { RunResult } from '../../src/contract/kernel-api.ts';
import { type Environment, startEnvironment } from '../../src/environment/index.ts';
import { type KernelWorkers, startKernelWorkers } from '../../src/kernel/workers/kernel-workers.ts';
import { argvOf, flagOf, readComposeFile, runNodeHealthcheck } from './compose-file.ts';

let env: Environment;
let mocks: MockProvider;
let workers: KernelWorkers;
let msw: ReturnType<typeof setupServer>;

beforeAll(async () => {
  env = await startEnvironment();
  if (!env.httpUrl) throw new Error('the embedded server has no HTTP API URL');
  mocks = createMockProvider({
    seed: 8,
    shape: { overrides: { turns: 6, bytesPerTurn: 1024, screenshotEvery: 3, screenshotBytes: 2000 } },
  });
  // The mocks intercept every fetch in this process and fail what they do not match: the HTTP
  // API of the embedded server is let through to the real server.
  msw = setupServer(
    ...mocks.handlers,
    http.all(`${env.httpUrl}/*`, () => passthrough()),
  );
  msw.listen({ onUnhandledRequest: 'error' });
  workers = await startKernelWorkers(env, ['v1'], { modelBaseUrl: mocks.modelBaseUrl, sandboxBaseUrl: mocks.sandboxBaseUrl }, 'k6-http');
});

afterAll(async () => {
  await workers?.stop();
  msw?.close();
  await env?.teardown();
});

async function send(request: { method: string; url: string; headers: Record<string, string>; body?: string }) {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body ?? null });
  return { status: response.status, body: await response.text() };
}

describe('scenarios/k6/lib/start-run.js against the embedded server', () => {
  it('starts a real run over HTTP that the v1 worker completes', async () => {
    const runId = 'k6-http-run-000003';
    const input = runInput({ runId, maxTurns: 20 });
    const target = { baseUrl: env.httpUrl as string, namespace: env.namespace, workflowId: runId };
    const start = startRunRequest({ ...target, taskQueue: workers.taskQueue('v1'), input, executionTimeoutSeconds: 300 });

    const first = await send(start);
    const started = readStartResponse(first.status, first.body);
    expect(started).toEqual({ started: true, runId: expect.any(String) });
    // Starting it again is refused, as a duplicate.
    const again = await send(start);
    expect(readStartResponse(again.status, again.body)).toMatchObject({ started: false, alreadyStarted: true });

    // Watched over HTTP as the ramping-vus script watches it.
    const describe = describeRunRequest(target);
    await vi.waitFor(
      async () => {
        const { status, body } = await send(describe);
        expect(isClosed(readRunStatus(status, body).status)).toBe(true);
      },
      { timeout: 90_000, interval: 250 },
    );
    const { status, body } = await send(describe);
    expect(readRunStatus(status, body)).toEqual({ status: 'COMPLETED' });

    // The server decoded our payload into the kernel's input, and the kernel played the run.
    const handle = env.client.workflow.getHandle(runId, started.runId);
    const history = await handle.fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    expect(Buffer.from(payload?.metadata?.encoding ?? []).toString()).toBe('json/plain');
    expect(JSON.parse(Buffer.from(payload?.data ?? []).toString())).toEqual(input);
    const result = (await env.client.workflow.getHandle(runId).result()) as RunResult;
    expect(result.runId).toBe(runId);
    expect(result.counters.turns).toBeGreaterThan(0);
    const agentCalls = mocks.recorder.records().filter((r) => r.target === 'agent' && r.runId === runId && r.status === 200);
    expect(agentCalls.length).toBe(result.counters.turns);
  });
});

describe("docker-compose.yml's worker health check against the embedded server", () => {
  it('passes once a worker polls the task queue, fails on a queue nobody polls', async () => {
    const worker = readComposeFile().services.worker ?? {};
    const queue = flagOf(argvOf(worker), 'task-queue') as string;
    const check = (taskQueue: string) =>
      runNodeHealthcheck(worker, (arg) =>
        arg.replace('http://temporal:7243', env.httpUrl as string).replace(`/task-queues/${queue}?`, `/task-queues/${taskQueue}?`),
      );
    await vi.waitFor(async () => expect(await check(workers.taskQueue('v1'))).toBe(0), { timeout: 30_000, interval: 500 });
    expect(await check('nobody-polls-this-queue')).toBe(1);
  });
});
