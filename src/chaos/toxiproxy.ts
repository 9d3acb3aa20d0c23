/**
 * Toxiproxy (built from tools/toxiproxy) driven over its HTTP API on loopback: TCP proxies in
 * front of the Temporal frontend and the mock model, and the toxics that make their links slow,
 * narrow, silent, reset or down.
 */
import { spawn } from 'node:child_process';
import { resolveToxiproxyBinary } from '../environment/index.ts';
import { childEnv } from '../shared/child-env.ts';
import { exitOf, stopChild, tailOf, trackChild } from './child-processes.ts';

export type ToxicType = 'latency' | 'bandwidth' | 'timeout' | 'reset_peer' | 'slow_close' | 'slicer' | 'limit_data';

export interface Toxic {
  name: string;
  type: ToxicType;
  /** downstream: server to client (Toxiproxy's default); upstream: client to server. */
  stream?: 'upstream' | 'downstream';
  /** Share of connections the toxic applies to (default 1). */
  toxicity?: number;
  /** The type's attributes: latency/jitter (ms), rate (KB/s), timeout (ms)... */
  attributes: Record<string, number>;
}

export interface Toxiproxy {
  apiUrl: string;
  pid: number;
  /** A proxy on a free loopback port in front of `upstream` (host:port); returns its host:port. */
  proxy(name: string, upstream: string): Promise<string>;
  addToxic(proxy: string, toxic: Toxic): Promise<void>;
  removeToxic(proxy: string, toxic: string): Promise<void>;
  /** A disabled proxy closes its connections and refuses new ones: the link is down. */
  setEnabled(proxy: string, enabled: boolean): Promise<void>;
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

export async function startToxiproxy(): Promise<Toxiproxy> {
  const binary = await resolveToxiproxyBinary();
  // stdin stays open: Toxiproxy exits when it closes, that is, when this process is gone. A group
  // of its own: a Ctrl-C to longrun's group must not take the server's path to its database
  // while the stop still needs it (longrun ends it with the harness, after the server).
  const child = spawn(binary.path, ['--host', '127.0.0.1', '--port', '0'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: childEnv(),
    detached: true,
  });
  trackChild(child, { group: true, infrastructure: true });
  const stderr = tailOf(child.stderr);
  const address = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`Toxiproxy did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^ready (\S+)$/m.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    exitOf(child).then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`Toxiproxy ${binary.path} exited (${signal ?? `code ${code}`}): ${stderr() || 'no output'}`));
    });
  }).catch((error: Error) => {
    child.kill('SIGKILL');
    throw error;
  });
  const apiUrl = `http://${address}`;
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Toxiproxy ${method} ${path}: HTTP ${response.status}: ${text.trim()}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    apiUrl,
    pid: child.pid as number,
    async proxy(name, upstream) {
      const created = (await call('POST', '/proxies', { name, listen: '127.0.0.1:0', upstream, enabled: true })) as { listen: string };
      return created.listen;
    },
    async addToxic(proxy, toxic) {
      await call('POST', `/proxies/${proxy}/toxics`, { stream: 'downstream', toxicity: 1, ...toxic });
    },
    async removeToxic(proxy, toxic) {
      await call('DELETE', `/proxies/${proxy}/toxics/${toxic}`);
    },
    async setEnabled(proxy, enabled) {
      await call('POST', `/proxies/${proxy}`, { enabled });
    },
    async close() {
      await stopChild(child, 5_000);
    },
  };
}
