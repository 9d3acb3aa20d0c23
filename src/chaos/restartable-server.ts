/**
 * The embedded Temporal server on fixed ports and storage that outlives it (a SQLite file of its
 * own, or the PostgreSQL cluster it is given), so that it can be stopped in the middle of runs
 * (the SDK kills it: a crash, as far as the server knows) and started again on the same ports
 * and data. The environment handed out keeps its first client throughout: its connection
 * reconnects once the server is back, as the workers' own connections do. A PostgreSQL cluster
 * it is given stays up across restarts and its teardown: the caller owns it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { type Environment, type EnvironmentOptions, freeLoopbackPort, startEnvironment } from '../environment/index.ts';
import { ownedTempDir } from '../shared/owned-temp-dir.ts';
import { sleep } from '../shared/sleep.ts';

export interface RestartableServer {
  environment: Environment;
  /** Stops the server, waits `downMs`, starts it again on the same port and data; resolves when it answers. */
  restart(downMs: number): Promise<void>;
}

/** `signal` aborts the first start only: a restart is part of a run. */
export type RestartableServerOptions = Pick<EnvironmentOptions, 'dynamicConfig' | 'postgres' | 'postgresVia' | 'signal'>;

export async function startRestartableServer({ signal, ...options }: RestartableServerOptions = {}): Promise<RestartableServer> {
  const dir = options.postgres ? undefined : ownedTempDir('longrun-server-');
  const removeDir = () => dir && rmSync(dir, { recursive: true, force: true });
  const settings: EnvironmentOptions = {
    ...options,
    ...(dir ? { dbFilename: join(dir, 'temporal.sqlite') } : {}),
    port: await freeLoopbackPort(),
    httpPort: await freeLoopbackPort(),
  };
  const first = await startEnvironment({ ...settings, ...(signal ? { signal } : {}) }).catch((error: Error) => {
    removeDir();
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
      await first.workerConnection.close();
      await first.client.connection.close();
      removeDir();
    },
  };
  return {
    environment,
    async restart(downMs) {
      await testEnv?.teardown();
      testEnv = undefined;
      await sleep(downMs);
      const next = await startEnvironment(settings);
      // The first client and worker connection stay in use; these only proved the server answers.
      await next.workerConnection.close();
      await next.client.connection.close();
      testEnv = next.testEnv;
    },
  };
}
