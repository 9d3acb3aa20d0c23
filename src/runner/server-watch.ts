/**
 * The embedded server, watched while the runs go on. A server that dies under longrun (a Go panic
 * on a loaded machine) would otherwise be waited for: every call retried for a minute as if a
 * chaos restart had taken it down, then an internal error, no word of the cause. Once its process
 * is gone, the calls that wait for the server give up at once with one line that says so
 * (server-retry.ts), and the scenario ends with it (exit 2).
 */
import { readFileSync } from 'node:fs';
import type { Environment } from '../environment/index.ts';
import { serverPidFinder } from '../load/index.ts';
import { markServerGone } from './server-retry.ts';

const WATCH_EVERY_MS = 1_000;

export interface ServerWatch {
  stop(): void;
}

/**
 * The environment's server process (embedded; on a cluster, the one LONGRUN_SERVER_PROCESS
 * names), looked up now: what it returns says, whenever asked, why that process is gone, or
 * undefined while it runs (or when none was found).
 */
export function serverExit(env: WatchedServer): () => string | undefined {
  const pid = serverPidFinder(env)?.();
  if (pid === undefined) return () => undefined;
  return () => {
    if (isLive(pid)) return undefined;
    // Nothing written of its end: a signal took it (a SIGKILL, the kernel's OOM killer).
    const why = env.crashReason ? (env.crashReason() ?? 'it wrote no panic or fatal error: killed by a signal?') : undefined;
    return `the Temporal server (pid ${pid}, ${env.description}) exited while longrun needed it${why ? `: ${why}` : ''}`;
  };
}

type WatchedServer = Pick<Environment, 'kind' | 'address' | 'description' | 'crashReason'>;

/** Watches the environment's server process, if it can be found. */
export function watchServer(env: WatchedServer): ServerWatch {
  const exited = serverExit(env);
  markServerGone(undefined);
  const timer = setInterval(() => {
    const reason = exited();
    if (reason === undefined) return;
    clearInterval(timer);
    markServerGone(reason);
  }, WATCH_EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      markServerGone(undefined);
    },
  };
}

/** Running: its /proc entry is there and it is no zombie (an exited child not reaped yet). */
function isLive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
