import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findEmbeddedServerPid } from '../load/index.ts';
import { withEnv } from '../shared/testing/with-env.ts';
import { type Environment, EnvironmentError, freeLoopbackPort, startEnvironment } from './index.ts';
import { resolveTemporalBinary } from './temporal-binary.ts';
import { crashReason } from './test-environment.ts';

const EventType = temporal.api.enums.v1.EventType;
const workflowsPath = new URL('./testing/workflows.ts', import.meta.url).pathname;
const activities = { echo: async (payload: string) => payload };

let bundle: WorkflowBundleWithSourceMap;
beforeAll(async () => {
  bundle = await bundleWorkflowCode({ workflowsPath, logger: quietLogger() });
});

function quietLogger() {
  const noop = () => {};
  return {
    trace: noop,
    debug: noop,
    info: noop,
    warn: noop,
    error: noop,
    log: noop,
  };
}

async function withWorker<T>(env: Environment, taskQueue: string, fn: () => Promise<T>): Promise<T> {
  const worker = await Worker.create({
    connection: env.workerConnection,
    namespace: env.namespace,
    taskQueue,
    workflowBundle: bundle,
    activities,
  });
  return worker.runUntil(fn);
}

async function historyEvents(env: Environment, workflowId: string) {
  const history = await env.testEnv.client.workflow.getHandle(workflowId).fetchHistory();
  return history.events ?? [];
}

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the embedded Temporal server', () => {
  let env: Environment;
  beforeAll(async () => {
    env = await startEnvironment({
      dynamicConfig: {
        'limit.blobSize.error': 64 * 1024,
        'limit.blobSize.warn': 16 * 1024,
        'limit.historySize.error': 256 * 1024,
        'limit.historySize.warn': 128 * 1024,
      },
    });
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('runs a workflow end to end', async () => {
    expect(env.kind).toBe('embedded');
    const result = await withWorker(env, 'greet', () =>
      env.testEnv.client.workflow.execute('greet', {
        taskQueue: 'greet',
        workflowId: 'greet-1',
        args: ['longrun'],
      }),
    );
    expect(result).toBe('hello longrun');
  });

  it('fails the workflow task with PAYLOADS_TOO_LARGE when an activity input passes the blob limit', async () => {
    const workflowId = 'too-large-1';
    await withWorker(env, 'payload', async () => {
      await env.testEnv.client.workflow.start('sendPayload', {
        taskQueue: 'payload',
        workflowId,
        args: [100 * 1024],
      });
      await waitFor(async () => {
        const events = await historyEvents(env, workflowId);
        return events.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED) ? true : undefined;
      }, 'a WorkflowTaskFailed event');
    });
    await env.testEnv.client.workflow.getHandle(workflowId).terminate('test over');
    const failed = (await historyEvents(env, workflowId)).filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.workflowTaskFailedEventAttributes?.cause).toBe(
      temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE,
    );
    const scheduled = (await historyEvents(env, workflowId)).filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
    expect(scheduled).toHaveLength(0);
  });

  it('terminates a workflow whose history passes the history-size limit', async () => {
    const workflowId = 'grow-1';
    await withWorker(env, 'grow', async () => {
      const handle = await env.testEnv.client.workflow.start('growHistory', {
        taskQueue: 'grow',
        workflowId,
        args: [40, 16 * 1024],
      });
      await expect(handle.result()).rejects.toThrow();
    });
    const events = await historyEvents(env, workflowId);
    const last = events.at(-1);
    expect(last?.eventType).toBe(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED);
    expect(last?.workflowExecutionTerminatedEventAttributes?.reason).toBe('Workflow history size exceeds limit.');
  });

  it("starts a workflow through Temporal's HTTP API", async () => {
    expect(env.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const workflowId = 'http-1';
    const response = await fetch(`${env.httpUrl}/api/v1/namespaces/default/workflows/${workflowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        workflowType: { name: 'greet' },
        taskQueue: { name: 'greet-http' },
        input: [{ name: 'over http' }],
      }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(((await response.json()) as { runId?: string }).runId).toMatch(/[0-9a-f-]{36}/);
    const result = await withWorker(env, 'greet-http', () => env.testEnv.client.workflow.getHandle(workflowId).result());
    expect(result).toEqual('hello [object Object]');
  });
});

describe('database: file', () => {
  it('keeps SQLite in a temporary file while the server runs, and removes it at teardown', async () => {
    const env = await startEnvironment({ database: 'file' });
    let db = '';
    try {
      const pid = findEmbeddedServerPid(env.address);
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      db = args[args.indexOf('--db-filename') + 1] ?? '';
      expect(db).toMatch(/longrun-db-.*temporal\.db$/);
      expect(existsSync(db)).toBe(true);
      await env.client.workflowService.describeNamespace({ namespace: env.namespace });
    } finally {
      await env.teardown();
    }
    expect(existsSync(dirname(db))).toBe(false);
  });
});

describe('what the server wrote of its end', () => {
  const write = (text: string) => {
    const file = join(mkdtempSync(join(tmpdir(), 'longrun-crash-')), 'crash.log');
    writeFileSync(file, text);
    return file;
  };

  it('is the fatal log line, message and error, or the runtime panic, or nothing', () => {
    const fatal = JSON.stringify({ level: 'fatal', msg: 'Failed to start gRPC listener', error: 'bind: address already in use' });
    expect(crashReason(write(`${fatal}\n`))).toBe('Failed to start gRPC listener: bind: address already in use');
    expect(crashReason(write(`\npanic: runtime error: invalid memory address\n\ngoroutine 1 [running]:\n`))).toBe(
      'panic: runtime error: invalid memory address',
    );
    expect(crashReason(write(''))).toBeUndefined();
    expect(crashReason('/nonexistent/crash.log')).toBeUndefined();
  });

  it('names why a start failed: an HTTP port taken gives the bind error, not a timeout', async () => {
    const httpPort = await freeLoopbackPort();
    const taken = createServer().listen(httpPort, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const error = await startEnvironment({ httpPort }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EnvironmentError);
      const message = (error as Error).message;
      expect(message).toMatch(/did not start \(4 attempts\): building server: .*bind: address already in use$/);
      expect(message).toContain(`127.0.0.1:${httpPort}`);
      expect(message.split('\n')).toHaveLength(1);
    } finally {
      taken.close();
    }
  });
});

describe('a broken LONGRUN_TEMPORAL_BIN', () => {
  /** Runs `fn` with LONGRUN_TEMPORAL_BIN set to a shell script (or a path), then restores it. */
  async function withBinary<T>(script: string | { path: string }, fn: (path: string) => Promise<T>): Promise<T> {
    let path: string;
    if (typeof script === 'string') {
      path = join(mkdtempSync(join(tmpdir(), 'longrun-bin-')), 'temporal');
      writeFileSync(path, `#!/bin/sh\n${script}\n`);
      chmodSync(path, 0o755);
    } else {
      path = script.path;
    }
    const previous = process.env.LONGRUN_TEMPORAL_BIN;
    process.env.LONGRUN_TEMPORAL_BIN = path;
    try {
      return await fn(path);
    } finally {
      if (previous === undefined) delete process.env.LONGRUN_TEMPORAL_BIN;
      else process.env.LONGRUN_TEMPORAL_BIN = previous;
    }
  }

  it('gets a clear error in seconds, not a hang', async () => {
    await withBinary('echo "not a temporal server" >&2\nexit 3', async (broken) => {
      const started = Date.now();
      const error = await startEnvironment().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EnvironmentError);
      expect((error as Error).message).toContain(broken);
      expect((error as Error).message).toContain('(4 attempts)');
      expect((error as Error).message.split('\n')).toHaveLength(1);
      // Four starts of 5 s each, a second apart: well under a minute, where a hang would be for ever.
      expect(Date.now() - started).toBeLessThan(60_000);
    });
  });

  it('is started again when its first start fails (a loaded machine, a port taken under it)', async () => {
    const real = (await resolveTemporalBinary()).path;
    const marker = join(mkdtempSync(join(tmpdir(), 'longrun-marker-')), 'failed-once');
    const failOnce = `if [ ! -e ${marker} ]; then touch ${marker}; exit 1; fi\nexec ${real} "$@"`;
    await withBinary(failOnce, async () => {
      const env = await startEnvironment();
      try {
        expect(existsSync(marker)).toBe(true);
        expect((await env.client.workflowService.getSystemInfo({})).serverVersion).toBeTruthy();
      } finally {
        await env.teardown();
      }
    });
  });

  it("gets no TEMPORAL_API_KEY in its environment: plaintext and local, it has no use for the user's key", async () => {
    const real = (await resolveTemporalBinary()).path;
    const said = join(mkdtempSync(join(tmpdir(), 'longrun-marker-')), 'key');
    await withEnv({ TEMPORAL_API_KEY: 'secret' }, async () => {
      await withBinary(`echo "key=$TEMPORAL_API_KEY." > ${said}\nexec ${real} "$@"`, async () => {
        const env = await startEnvironment();
        await env.teardown();
      });
      expect(process.env.TEMPORAL_API_KEY).toBe('secret');
    });
    expect(readFileSync(said, 'utf8').trim()).toBe('key=.');
  });

  it('says in one line, when asked to stop during its start, that it waits for the start to finish', async () => {
    const real = (await resolveTemporalBinary()).path;
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
    try {
      await withBinary(`sleep 1\nexec ${real} "$@"`, async () => {
        const stop = new AbortController();
        setTimeout(() => stop.abort(), 300);
        const env = await startEnvironment({ signal: stop.signal });
        await env.teardown();
      });
    } finally {
      stderr.mockRestore();
    }
    expect(written.filter((line) => line.includes('Temporal server'))).toEqual([
      "longrun: stopping once the Temporal server's start is over (the SDK gives it up to 5 s and cannot cut it short)\n",
    ]);
  });

  it('names the variable when the file does not exist', async () => {
    await withBinary({ path: '/nonexistent/temporal' }, async () => {
      await expect(startEnvironment()).rejects.toThrow('LONGRUN_TEMPORAL_BIN=/nonexistent/temporal is not an executable file');
    });
  });
});
