/**
 * A fresh embedded server per measurement, so that one section's histories (the server keeps
 * them in SQLite in memory) never weigh on the next one's time or memory, and the server's
 * process id, to read its CPU and memory from /proc.
 */
import { type Environment, startEnvironment } from '../src/environment/index.ts';
import { findEmbeddedServerPid } from '../src/load/index.ts';

export interface BenchEnvironment {
  env: Environment;
  /** The embedded server's process; undefined on an existing cluster. */
  serverPid: number | undefined;
}

export interface BenchEnvironmentOptions {
  /**
   * Keep the server's SQLite in a file (deleted afterwards) rather than in memory: for runs
   * that write more history than memory holds (the server deletes closed executions lazily).
   */
  onDisk?: boolean;
}

export async function withBenchEnvironment<T>(
  work: (bench: BenchEnvironment) => Promise<T>,
  options: BenchEnvironmentOptions = {},
): Promise<T> {
  const env = await startEnvironment(options.onDisk ? { database: 'file' } : {});
  const serverPid = env.kind === 'embedded' ? findEmbeddedServerPid(env.address) : undefined;
  try {
    return await work({ env, serverPid });
  } finally {
    await env.teardown();
  }
}
