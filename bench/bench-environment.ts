/**
 * A fresh embedded server per measurement, so that one section's histories (the server keeps
 * them in SQLite in memory) never weigh on the next one's time or memory, and the server's
 * process id, to read its CPU and memory from /proc.
 */
import { type Environment, startEnvironment } from '../src/environment/index.ts';
import { childProcesses } from './proc-stat.ts';

export interface BenchEnvironment {
  env: Environment;
  /** The embedded server's process; undefined on an existing cluster. */
  serverPid: number | undefined;
}

/** The server is started with `temporal server start-dev` flags (our binary or the official CLI). */
const SERVER_MARK = 'start-dev';

export async function withBenchEnvironment<T>(work: (bench: BenchEnvironment) => Promise<T>): Promise<T> {
  const before = new Set(childProcesses(process.pid, SERVER_MARK));
  const env = await startEnvironment();
  const serverPid = childProcesses(process.pid, SERVER_MARK).find((pid) => !before.has(pid));
  try {
    return await work({ env, serverPid });
  } finally {
    await env.teardown();
  }
}
