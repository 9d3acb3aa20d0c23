import type { Client } from '@temporalio/client';
import { describe, expect, it, vi } from 'vitest';
import { withEnv } from '../shared/testing/with-env.ts';
import { crashMessage, ForeignWorker } from './foreign-worker.ts';

describe('crashMessage', () => {
  it('says what happened to a foreign worker: its signal or code, its real time, its last word and the end of its stderr', () => {
    const stderr = 'worker started\nthread panicked at core/src/lib.rs:12\nFatal Python error: Aborted\n';
    expect(crashMessage('foreign worker py-v1 (`python worker.py`)', { code: null, signal: 'SIGABRT' }, 2_140, stderr)).toBe(
      'foreign worker py-v1 (`python worker.py`) exited with SIGABRT after 2.1 s: Fatal Python error: Aborted; its stderr ended: worker started | thread panicked at core/src/lib.rs:12 | Fatal Python error: Aborted',
    );
    expect(crashMessage('foreign worker go-v1', { code: 3, signal: null }, 400, '')).toBe(
      'foreign worker go-v1 exited with code 3 after 0.4 s: no output',
    );
  });
});

describe('a foreign worker that crashes as it starts', () => {
  it('is reported as what happened: its signal (not the exit code of its supervisor), its real time, the end of its stderr', async () => {
    // No server: a worker that never polls, asked by a client that sees no poller.
    const client = { workflowService: { describeTaskQueue: async () => ({ pollers: [] }) } } as unknown as Client;
    const command = { argv: ['sh', '-c', 'echo "loading" >&2; echo "fatal: core dumped" >&2; kill -ABRT $$'] };
    const options = {
      name: 'aborts',
      command,
      client,
      address: '127.0.0.1:1',
      namespace: 'default',
      taskQueue: 'q',
      mockUrl: 'http://127.0.0.1:1',
    };
    await expect(ForeignWorker.start(options)).rejects.toThrow(
      /^foreign worker aborts \(`sh -c .*`\) exited with SIGABRT after \d+\.\d s: fatal: core dumped; its stderr ended: loading \| fatal: core dumped$/,
    );
  });
});

describe("the user's cluster key (TEMPORAL_API_KEY)", () => {
  // No server: the worker says what it was given, then exits, which the start reports with its stderr.
  const client = { workflowService: { describeTaskQueue: async () => ({ pollers: [] }) } } as unknown as Client;
  const saysItsKey = (userCluster: boolean) =>
    ForeignWorker.start({
      name: 'says-its-key',
      command: { argv: ['sh', '-c', 'echo "key=$TEMPORAL_API_KEY." >&2; exit 3'] },
      client,
      address: '127.0.0.1:1',
      namespace: 'default',
      taskQueue: 'q',
      mockUrl: 'http://127.0.0.1:1',
      userCluster,
    }).catch((error: Error) => error.message);

  it("reaches a foreign worker on the user's cluster, never one on the embedded server", async () => {
    await withEnv({ TEMPORAL_API_KEY: 'secret' }, async () => {
      expect(await saysItsKey(false)).toMatch(/: key=\.$/);
      expect(await saysItsKey(true)).toMatch(/: key=secret\.$/);
    });
  });
});

describe('a foreign worker told to stop', () => {
  // No server: the client sees the worker poll under the identity it was given.
  const client = { workflowService: { describeTaskQueue: async () => ({ pollers: [{ identity: 'w@test' }] }) } } as unknown as Client;
  const start = (script: string) =>
    ForeignWorker.start({
      name: 'slow',
      command: { argv: ['sh', '-c', script] },
      client,
      address: '127.0.0.1:1',
      namespace: 'default',
      taskQueue: 'q',
      mockUrl: 'http://127.0.0.1:1',
      identity: 'w@test',
    });

  async function stopped(script: string, graceMs: number): Promise<string[]> {
    const worker = await start(script);
    // Its supervisor takes SIGTERM as a stop once it has started the worker.
    await vi.waitFor(() => expect(worker.pid).toBeDefined(), { timeout: 10_000 });
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
    try {
      await worker.stop(graceMs);
    } finally {
      stderr.mockRestore();
    }
    return written;
  }

  it('says in one line that longrun waits out its grace when it does not stop at once, and nothing when it does', async () => {
    expect(await stopped('trap "" TERM; while :; do sleep 0.1; done', 2_500)).toEqual([
      'longrun: waiting up to 3 s for foreign worker slow (`sh -c trap "" TERM; while :; do sleep 0.1; done`) to stop after SIGTERM (its activities in flight may finish), then SIGKILL\n',
    ]);
    expect(await stopped('sleep 30', 2_500)).toEqual([]);
  });
});
