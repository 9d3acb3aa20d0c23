/**
 * The embedded Temporal server on a SQLite file and fixed ports, so that it can be stopped in
 * the middle of runs (the SDK kills it: a crash, as far as the server knows) and started again
 * on the same port and file. The environment handed out keeps its first client throughout: its
 * connection reconnects once the server is back, as the workers' own connections do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { type DynamicConfig, type Environment, freeLoopbackPort, startEnvironment } from '../environment/index.ts';
import { sleep } from '../shared/sleep.ts';

export interface RestartableServer {
  environment: Environment;
  /** Stops the server, waits `downMs`, starts it again on the same port and file; resolves when it answers. */
  restart(downMs: number): Promise<void>;
}

export async function startRestartableServer(dynamicConfig: DynamicConfig = {}): Promise<RestartableServer> {
  const dir = mkdtempSync(join(tmpdir(), 'longrun-server-'));
  const settings = {
    dynamicConfig,
    dbFilename: join(dir, 'temporal.sqlite'),
    port: await freeLoopbackPort(),
    httpPort: await freeLoopbackPort(),
  };
  const first = await startEnvironment(settings).catch((error: Error) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  let testEnv: TestWorkflowEnvironment | undefined = first.testEnv;
  const environment: Environment = {
    ...first,
    get testEnv(): TestWorkflowEnvironment {
      if (!testEnv) throw new Error('the Temporal server is down (a chaos restart)');
      return testEnv;
    },
    async teardown() {
      await testEnv?.teardown();
      testEnv = undefined;
      await first.client.connection.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return {
    environment,
    async restart(downMs) {
      await testEnv?.teardown();
      testEnv = undefined;
      await sleep(downMs);
      const next = await startEnvironment(settings);
      // The first client stays in use; this one only proved the server answers.
      await next.client.connection.close();
      testEnv = next.testEnv;
    },
  };
}
