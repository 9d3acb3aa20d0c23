/**
 * Temporal's Web UI for a server longrun started (tools/temporal-ui, the ui-server module with
 * its built assets): LONGRUN_TEMPORAL_UI_BIN (a ready binary), else the cached build, else a
 * build now with Go. Built on first use (`longrun run --ui`), never at `npm install`.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { childEnv } from '../shared/child-env.ts';
import { packagePath } from '../shared/package-paths.ts';
import { sleep } from '../shared/sleep.ts';
import { type GoProgram, type ResolveOptions, resolveGoProgram } from './go-program.ts';
import { type Environment, freeLoopbackPort } from './test-environment.ts';

export class TemporalUiError extends Error {
  override name = 'TemporalUiError';
}

const TEMPORAL_UI: GoProgram = {
  title: "Temporal's Web UI",
  name: 'temporal-ui',
  sourceDir: packagePath('tools', 'temporal-ui'),
  envVar: 'LONGRUN_TEMPORAL_UI_BIN',
  buildCost: 'about three minutes cold',
  buildCommand: 'cd tools/temporal-ui && go build -o temporal-ui .',
  alternative: 'or set LONGRUN_TEMPORAL_UI_BIN to a temporal-ui binary',
  errorClass: TemporalUiError,
};

/** The port Temporal's own dev server serves its UI on; another is taken when it is busy. */
export const DEFAULT_UI_PORT = 8233;
const READY_WITHIN_MS = 20_000;

export interface TemporalUi {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Where a workflow's page is. */
  workflowUrl(workflowId: string): string;
  stop(): Promise<void>;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
}

/** Serves the UI for `env` on loopback; it goes down with `stop()` or with this process. */
export async function startTemporalUi(env: Environment, options: ResolveOptions & { port?: number } = {}): Promise<TemporalUi> {
  const binary = await resolveGoProgram(TEMPORAL_UI, options);
  const port = options.port ?? ((await portIsFree(DEFAULT_UI_PORT)) ? DEFAULT_UI_PORT : await freeLoopbackPort());
  const args = ['--frontend', env.address, '--port', String(port), '--namespace', env.namespace];
  const command = `${binary.path} ${args.join(' ')}`;
  const child = spawn(binary.path, args, { stdio: ['ignore', 'ignore', 'pipe'], env: childEnv() });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = signal ? `signal ${signal}` : `code ${code}`));
  child.on('error', (error) => (exited = error.message));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (exited) throw new TemporalUiError(`${command} exited (${exited}): ${stderr.trim().split('\n').at(-1) ?? ''}`);
    try {
      if ((await fetch(`${url}/api/v1/settings`, { signal: AbortSignal.timeout(1_000) })).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new TemporalUiError(`${command} did not answer on ${url} within ${READY_WITHIN_MS / 1000} s`);
    }
    await sleep(200);
  }
  return {
    url,
    workflowUrl: (workflowId) => `${url}/namespaces/${encodeURIComponent(env.namespace)}/workflows/${encodeURIComponent(workflowId)}`,
    stop: () =>
      new Promise((done) => {
        if (exited) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
