/**
 * The embedded server as production runs it (`server.topology: services`): frontend, history,
 * matching and worker, each a process of its own on loopback, sharing one PostgreSQL. Every
 * process gets every service's port and finds the others there (static membership,
 * docs/decisions/service-membership.md); clients and workers use the frontend. Each service
 * logs to a file of its own, named in the error when it does not start. Every process is
 * SIGKILLed when longrun exits, and dies by itself when longrun is SIGKILLed (it watches its
 * parent), so none outlives the harness.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { childEnv } from '../shared/child-env.ts';
import { ownedTempDir } from '../shared/owned-temp-dir.ts';

export const SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface ServiceClusterOptions {
  /** The temporal-server binary built from tools/temporal-server. */
  binary: string;
  /** host:port of the PostgreSQL the services share. */
  postgres: string;
  /** The frontend's gRPC and HTTP ports. */
  port: number;
  httpPort: number;
  /** The other services' gRPC ports. */
  servicePorts: Record<Exclude<ServiceName, 'frontend'>, number>;
  /** --dynamic-config-value arguments, the same for every service. */
  dynamicConfigArgs: string[];
  logLevel: string;
}

export interface ServiceCluster {
  /** The frontend's gRPC host:port: what clients and workers use. */
  address: string;
  /** Folder of the services' logs, `<service>.log`. */
  logDir: string;
  pid(service: ServiceName): number | undefined;
  /** SIGKILLs the service (a crash) and waits for its exit. */
  kill(service: ServiceName): Promise<void>;
  /** Starts the service again on its port; resolves once it is ready. */
  start(service: ServiceName): Promise<void>;
  /** SIGTERMs every service (SIGKILL after 10 s) and removes the logs. */
  teardown(): Promise<void>;
}

export class ServiceStartError extends Error {
  override name = 'ServiceStartError';
}

/** How long one service may take to say it is ready: its start reads PostgreSQL, slow on a loaded machine. */
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** The frontend first (it registers the namespaces and the cluster's metadata), then the others together. */
export async function startServiceCluster(options: ServiceClusterOptions): Promise<ServiceCluster> {
  const logDir = ownedTempDir('longrun-services-');
  const children = new Map<ServiceName, ChildProcess>();
  const start = async (service: ServiceName) => {
    const child = await startService(options, service, logDir);
    children.set(service, child);
  };
  const teardown = async () => {
    await Promise.all([...children.values()].map((child) => stop(child)));
    children.clear();
  };
  try {
    await start('frontend');
    await Promise.all(SERVICES.slice(1).map(start));
  } catch (error) {
    await teardown();
    throw error;
  }
  return {
    address: `127.0.0.1:${options.port}`,
    logDir,
    pid: (service) => children.get(service)?.pid,
    async kill(service) {
      const child = children.get(service);
      children.delete(service);
      if (!child || !isRunning(child)) return;
      const exited = exitOf(child);
      child.kill('SIGKILL');
      await exited;
    },
    start,
    async teardown() {
      await teardown();
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}

function serviceArgs(options: ServiceClusterOptions, service: ServiceName): string[] {
  return [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--http-port',
    String(options.httpPort),
    '--namespace',
    'default',
    '--postgres',
    options.postgres,
    '--log-format',
    'json',
    '--log-level',
    options.logLevel,
    '--print-ready',
    '--service',
    service,
    ...Object.entries(options.servicePorts).flatMap(([name, port]) => ['--service-port', `${name}=${port}`]),
    ...options.dynamicConfigArgs,
  ];
}

/** One service, its output appended to `<service>.log`; resolves once it prints its ready line. */
async function startService(options: ServiceClusterOptions, service: ServiceName, logDir: string): Promise<ChildProcess> {
  const logFile = join(logDir, `${service}.log`);
  const log = openSync(logFile, 'a');
  const child = spawn(options.binary, serviceArgs(options, service), { stdio: ['ignore', 'pipe', log], env: childEnv() });
  closeSync(log);
  track(child);
  const failed = (why: string) =>
    new ServiceStartError(`the Temporal ${service} service did not start (${why}): see ${logFile}${lastLine(logFile)}`);
  let timer: NodeJS.Timeout | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
    lines.on('line', (line) => line.startsWith('ready ') && resolve());
    child.once('exit', (code, signal) => reject(failed(`exit ${code ?? signal}`)));
    child.once('error', (error) => reject(failed(error.message)));
    timer = setTimeout(() => reject(failed(`not ready within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
  });
  try {
    await ready;
  } catch (error) {
    await stop(child);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // Once ready, its standard output says nothing more: drain it, so a write never blocks.
  child.stdout?.resume();
  return child;
}

/** The log's last line (the server's own error, on a start that failed), for a one-line message. */
function lastLine(logFile: string): string {
  const last = readFileSync(logFile, 'utf8').trim().split('\n').at(-1) ?? '';
  return last ? `; its last line: ${last.slice(0, 300)}` : '';
}

function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const each of running) each.kill('SIGKILL');
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (!isRunning(child)) return;
  const exited = exitOf(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function exitOf(child: ChildProcess): Promise<void> {
  return isRunning(child) ? new Promise((resolve) => child.once('exit', () => resolve())) : Promise.resolve();
}
