/**
 * `longrun worker` against a cluster it is pointed at, with `longrun mock-server`'s handlers
 * over HTTP: the pair the docker-compose soak runs, here on the embedded server.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../mocks/index.ts';
import { type RunInput, type RunResult, WORKFLOW_TYPE } from '../src/contract/kernel-api.ts';
import { type Environment, startEnvironment } from '../src/environment/index.ts';

const BIN = fileURLToPath(new URL('../bin/longrun.js', import.meta.url));

describe('longrun worker', () => {
  let env: Environment;
  let mocks: Awaited<ReturnType<typeof startMockServer>>;
  beforeAll(async () => {
    env = await startEnvironment();
    mocks = await startMockServer({ seed: 9, shape: { scale: 0.05, overrides: { turns: 6 } } });
  });
  afterAll(async () => {
    await mocks?.close();
    await env?.teardown();
  });

  it('runs the kernel on TEMPORAL_ADDRESS until SIGTERM, then exits 0', async () => {
    const worker = spawn(process.execPath, [BIN, 'worker', '--task-queue', 'external', '--mock-url', mocks.url, '--binary', 'v1'], {
      env: { ...process.env, TEMPORAL_ADDRESS: env.address },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    worker.stdout.on('data', (d) => (output += d));
    worker.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => worker.on('close', resolve));

    const plan = mocks.planFor('external-run-0001');
    const input: RunInput = {
      runId: plan.runId,
      systemPrompt: plan.systemPrompt,
      userRequest: plan.userRequest,
      settings: { agent: { model: 'longrun-agent' } },
      maxTurns: 20,
    };
    const result = (await env.client.workflow.execute(WORKFLOW_TYPE, {
      taskQueue: 'external',
      workflowId: 'external-run-0001',
      args: [input],
      workflowExecutionTimeout: '2m',
    })) as RunResult;
    expect(result.ended).toBe('done');
    expect(result.counters.turns).toBe(plan.turns.length);
    expect(mocks.recorder.records().filter((r) => r.target === 'agent')).toHaveLength(plan.turns.length);

    worker.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    expect(output).toContain('binary v1 on task queue external');
  });

  it('says what is missing in one line', async () => {
    const child = spawn(process.execPath, [BIN, 'worker', '--task-queue', 'q', '--mock-url', 'http://127.0.0.1:1'], {
      env: { ...process.env, TEMPORAL_ADDRESS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('longrun worker: TEMPORAL_ADDRESS is not set: the worker needs a cluster to poll');
  });
});
