/**
 * A foreign worker (here the Go reference kernel) started, seen polling and stopped; and the
 * ways one fails to start, each one line naming its command, with nothing left running.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../mocks/index.ts';
import { type Environment, resolveGoKernelBinary, startEnvironment } from '../environment/index.ts';
import { sleep } from '../shared/sleep.ts';
import { exitOf } from './child-processes.ts';
import type { ForeignCommand } from './foreign-command.ts';
import { ForeignWorker } from './foreign-worker.ts';
import { processesRunning } from './testing/processes.ts';

let env: Environment;
let mocks: MockServer;
let goKernel: string;
let queues = 0;

beforeAll(async () => {
  [env, mocks, goKernel] = await Promise.all([
    startEnvironment(),
    startMockServer({ seed: 7 }),
    resolveGoKernelBinary().then((binary) => binary.path),
  ]);
}, 400_000);

afterAll(async () => {
  await mocks?.close();
  await env?.teardown();
});

function start(name: string, command: ForeignCommand, readyTimeoutMs?: number): Promise<ForeignWorker> {
  return ForeignWorker.start({
    name,
    command,
    client: env.client,
    address: env.address,
    namespace: env.namespace,
    taskQueue: `foreign-${++queues}`,
    mockUrl: mocks.url,
    ...(readyTimeoutMs !== undefined ? { readyTimeoutMs } : {}),
  });
}

/** Whether any process of the group `pid` leads is alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function groupGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && groupAlive(pid); i++) await sleep(100);
  return !groupAlive(pid);
}

describe('a foreign worker', () => {
  it('is ready once the server sees it poll its task queue, and a stop ends its whole process group', async () => {
    const worker = await start('go-v1', { argv: [goKernel, 'worker', '--binary', 'v1'] });
    const pid = worker.supervisorPid as number;
    expect(groupAlive(pid)).toBe(true);
    await worker.stop();
    expect(await groupGone(pid)).toBe(true);
  });

  it('that cannot start is one line naming its command', async () => {
    await expect(start('missing', { argv: ['no-such-worker', '--binary', 'v1'] })).rejects.toThrow(
      /^foreign worker missing \(`no-such-worker --binary v1`\) exited with code 127 after \d+(\.\d)? s: could not start `no-such-worker --binary v1`: ENOENT$/,
    );
  });

  it('that exits at once is one line with the last thing it said', async () => {
    const command = { argv: ['sh', '-c', 'echo starting; echo "config: LONGRUN_API_KEY is not set" >&2; exit 3'] };
    await expect(start('broken', command)).rejects.toThrow(
      /^foreign worker broken \(`sh -c .*`\) exited with code 3 after \d+(\.\d)? s: config: LONGRUN_API_KEY is not set$/,
    );
  });

  it('that never polls fails after its timeout, and is not left running', async () => {
    // A duration no other process on the machine sleeps, to find this one by its command line.
    const command = { argv: ['sh', '-c', 'echo "waiting for a database" >&2; exec sleep 301.25'] };
    await expect(start('silent', command, 1_500)).rejects.toThrow(
      /^foreign worker silent \(`sh -c .*`\) never polled task queue foreign-\d+ in 2 s: waiting for a database$/,
    );
    expect(processesRunning('sleep\x181.25')).toEqual([]);
  });
});

describe('the foreign supervisor', () => {
  it('kills the worker when longrun goes away without a word (its IPC channel closes)', async () => {
    const supervisor = fileURLToPath(new URL('./foreign-supervisor.ts', import.meta.url));
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const child = spawn(process.execPath, ['--import', tsx, supervisor, JSON.stringify({ argv: ['sleep', '300'] })], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      detached: true,
    });
    const pid = child.pid as number;
    await sleep(1_500); // the supervisor starts `sleep` in its group
    expect(groupAlive(pid)).toBe(true);
    child.disconnect();
    await exitOf(child);
    expect(await groupGone(pid)).toBe(true);
  });
});
