/**
 * One function that gives longrun a real Temporal server: the embedded one (the binary built
 * from tools/temporal-server, started through @temporalio/testing with production-like dynamic
 * config, on SQLite in memory, a SQLite file or a throwaway PostgreSQL cluster) or an existing
 * cluster from TEMPORAL_ADDRESS. On PostgreSQL it runs as one process or as production does,
 * one per service (service-cluster.ts). Teardown stops what it started.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection } from '@temporalio/worker';
import { withoutClusterSecrets } from '../shared/child-env.ts';
import { throwIfInterrupted } from '../shared/interrupted.ts';
import { type DynamicConfig, dynamicConfigArgs, PRODUCTION_DYNAMIC_CONFIG } from './dynamic-config.ts';
import { type ClusterSettings, clusterSettingsFromEnv, describeCluster } from './existing-cluster.ts';
import { type PostgresCluster, startPostgres } from './postgres-cluster.ts';
import { installRuntime } from './runtime.ts';
import { type ServiceCluster, startServiceCluster } from './service-cluster.ts';
import { resolveTemporalBinary } from './temporal-binary.ts';
import { workerConnectionOptions } from './worker-connection.ts';

export type Persistence = 'sqlite-memory' | 'sqlite-file' | 'postgres';
export type Topology = 'single' | 'services';

export interface EnvironmentOptions {
  /** Overrides of the production-like dynamic config (embedded server only). */
  dynamicConfig?: DynamicConfig;
  /** SQLite file for a server that must survive restarts; in memory when absent. */
  dbFilename?: string;
  /**
   * `file`: SQLite in a temporary file, deleted at teardown, so the server's memory is the
   * server's and not every history it stores (default `memory`; ignored with `dbFilename`).
   */
  database?: 'memory' | 'file';
  /**
   * Where the embedded server keeps its data; overrides `database`. `postgres`: a throwaway
   * PostgreSQL cluster of longrun's own (postgres-cluster.ts), the persistence production runs on.
   */
  persistence?: Persistence;
  /**
   * `single` (default): every service in one process. `services`: frontend, history, matching
   * and worker as four processes on loopback (service-cluster.ts), on PostgreSQL.
   */
  topology?: Topology;
  /** A running cluster to use instead of starting one (a restart of the server keeps its data). */
  postgres?: PostgresCluster;
  /** host:port the server reaches `postgres` through (a Toxiproxy proxy in front of it); default its own address. */
  postgresVia?: string;
  /** The embedded server's gRPC and HTTP ports (default: free ones); a restart reuses them. */
  port?: number;
  httpPort?: number;
  /** An existing cluster; default: from TEMPORAL_ADDRESS, else the embedded server. */
  cluster?: ClusterSettings;
  /** Aborts a start under way: PostgreSQL's at once, the server's before another attempt (InterruptedError). */
  signal?: AbortSignal;
  /** The embedded server's log level (default: LONGRUN_SERVER_LOG_LEVEL, else 'never'). */
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'never';
}

export interface Environment {
  kind: 'embedded' | 'existing';
  testEnv: TestWorkflowEnvironment;
  /** A client whose connection takes messages as large as the histories longrun makes. */
  client: Client;
  /** The connection for workers in this process: without gzip to a server on this machine (worker-connection.ts). */
  workerConnection: NativeConnection;
  /** gRPC host:port of the frontend. */
  address: string;
  /** Base URL of Temporal's HTTP API (embedded server only). */
  httpUrl?: string;
  namespace: string;
  /** The dynamic config the embedded server runs with; undefined for an existing cluster. */
  dynamicConfig?: DynamicConfig;
  /** The PostgreSQL cluster under the embedded server (persistence `postgres`). */
  postgres?: PostgresCluster;
  /** The services' processes (topology `services`). */
  services?: ServiceCluster;
  /** For logs and reports: never contains keys or certificates. */
  description: string;
  /**
   * Why the embedded server died, from what it wrote of its own end (a panic, a fatal log line);
   * undefined while it says nothing, or when the binary cannot say (a LONGRUN_TEMPORAL_BIN).
   */
  crashReason?(): string | undefined;
  teardown(): Promise<void>;
}

export class EnvironmentError extends Error {
  override name = 'EnvironmentError';
}

/** The embedded server answered its start, then died before longrun could use it. */
export class ServerExitedError extends EnvironmentError {
  override name = 'ServerExitedError';
}

export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startEnvironment(options: EnvironmentOptions = {}): Promise<Environment> {
  const cluster = options.cluster ?? clusterSettingsFromEnv();
  if (cluster) return connectToCluster(cluster);
  const persistence = options.persistence ?? (options.database === 'file' ? 'sqlite-file' : 'sqlite-memory');
  if (options.topology === 'services') {
    if (persistence !== 'postgres' || options.dbFilename) {
      throw new EnvironmentError(`server.topology services: the services share one store, so server.persistence must be postgres`);
    }
    const postgres = options.postgres ?? (await startPostgres(options.signal));
    return startServices({ ...options, postgres }, options.postgres ? () => {} : () => postgres.teardown());
  }
  if (options.dbFilename || options.postgres || persistence === 'sqlite-memory') return startEmbedded(options);
  if (persistence === 'postgres') {
    const postgres = await startPostgres(options.signal);
    return startOn({ ...options, postgres }, () => postgres.teardown());
  }
  const dir = mkdtempSync(join(tmpdir(), 'longrun-db-'));
  return startOn({ ...options, dbFilename: join(dir, 'temporal.db') }, () => rmSync(dir, { recursive: true, force: true }));
}

/** The embedded server on storage made for it, which `remove` takes away after the server (or its failed start). */
async function startOn(options: EnvironmentOptions, remove: () => unknown): Promise<Environment> {
  const env = await startEmbedded(options).catch(async (error: unknown) => {
    await remove();
    throw error;
  });
  return {
    ...env,
    async teardown() {
      await env.teardown();
      await remove();
    },
  };
}

/** The four services on `options.postgres`; `remove` takes PostgreSQL away after them (or after a failed start). */
async function startServices(options: EnvironmentOptions & { postgres: PostgresCluster }, remove: () => unknown): Promise<Environment> {
  const binary = await resolveTemporalBinary();
  const dynamicConfig = { ...PRODUCTION_DYNAMIC_CONFIG, ...options.dynamicConfig };
  const httpPort = options.httpPort ?? (await freeLoopbackPort());
  let services: ServiceCluster;
  try {
    services = await startServiceCluster({
      binary: binary.path,
      postgres: options.postgresVia ?? options.postgres.address,
      port: options.port ?? (await freeLoopbackPort()),
      httpPort,
      servicePorts: { history: await freeLoopbackPort(), matching: await freeLoopbackPort(), worker: await freeLoopbackPort() },
      dynamicConfigArgs: dynamicConfigArgs(dynamicConfig),
      // Warnings and errors: what a service that does not start, or falls over, leaves in its log.
      logLevel: options.logLevel ?? process.env.LONGRUN_SERVER_LOG_LEVEL ?? 'warn',
    });
  } catch (error) {
    await remove();
    throw error;
  }
  installRuntime(); // as in connectToCluster
  const connecting = TestWorkflowEnvironment.createFromExistingServer({ address: services.address, namespace: 'default' });
  const connected = await connecting
    .then((testEnv) => withClient(testEnv, 'default').then((connection) => ({ testEnv, ...connection })))
    .catch(async (error: unknown) => {
      await services.teardown();
      await remove();
      throw error;
    });
  return {
    kind: 'embedded',
    address: services.address,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    namespace: 'default',
    dynamicConfig,
    postgres: options.postgres,
    services,
    description: `embedded Temporal server as four processes (frontend, history, matching, worker; ${binary.source}: ${binary.path}) at ${services.address} on PostgreSQL at ${options.postgres.address}`,
    ...connected,
    async teardown() {
      await connected.teardown();
      await services.teardown();
      await remove();
    },
  };
}

/** gRPC's default 4 MiB receive limit is less than one page of a long run's history. */
const MAX_MESSAGE_BYTES = 512 * 1024 * 1024;

async function historyClient(testEnv: TestWorkflowEnvironment, namespace: string): Promise<Client> {
  const connection = await Connection.connect({
    address: testEnv.address,
    ...testEnv.connectionOptions,
    channelArgs: { 'grpc.max_receive_message_length': MAX_MESSAGE_BYTES },
  });
  return new Client({ connection, namespace });
}

async function withClient(testEnv: TestWorkflowEnvironment, namespace: string) {
  const client = await historyClient(testEnv, namespace);
  const workerConnection = await NativeConnection.connect({
    ...testEnv.connectionOptions,
    address: testEnv.address,
    ...workerConnectionOptions(testEnv.address),
  });
  return {
    client,
    workerConnection,
    teardown: async () => {
      await workerConnection.close();
      await client.connection.close();
      await testEnv.teardown();
    },
  };
}

/**
 * The SDK runtime goes in only right before the first native object: once installed, it keeps
 * the process alive until its last one closes, so a start that fails or is interrupted before
 * (PostgreSQL's) would leave longrun printing its error and never exiting.
 */
async function connectToCluster(cluster: ClusterSettings): Promise<Environment> {
  installRuntime();
  let testEnv: TestWorkflowEnvironment;
  try {
    testEnv = await TestWorkflowEnvironment.createFromExistingServer({
      address: cluster.address,
      namespace: cluster.namespace,
      connectionOptions: cluster.connectionOptions,
    });
  } catch (error) {
    throw new EnvironmentError(`cannot reach Temporal at ${cluster.address}: ${firstLine(error)}`);
  }
  return {
    kind: 'existing',
    testEnv,
    address: cluster.address,
    namespace: cluster.namespace,
    description: describeCluster(cluster),
    ...(await withClient(testEnv, cluster.namespace)),
  };
}

/**
 * Starts of the embedded server before giving up, a second apart: the SDK gives each start a
 * fixed 5 s, which a machine busy with other work can overrun several times in a row.
 */
const START_ATTEMPTS = 4;
const START_PAUSE_MS = 1_000;

async function startEmbedded(options: EnvironmentOptions): Promise<Environment> {
  const binary = await resolveTemporalBinary();
  installRuntime(); // as in connectToCluster
  const dynamicConfig = {
    ...PRODUCTION_DYNAMIC_CONFIG,
    ...options.dynamicConfig,
  };
  // The SDK's start cannot be cut short: a stop asked for meanwhile waits for it, and says so.
  const waiting = () =>
    process.stderr.write(
      "longrun: stopping once the Temporal server's start is over (the SDK gives it up to 5 s and cannot cut it short)\n",
    );
  options.signal?.addEventListener('abort', waiting, { once: true });
  // longrun's own build writes why it died to this file; any other binary may not take the flag.
  const crashDir = binary.source === 'env' ? undefined : mkdtempSync(join(tmpdir(), 'longrun-server-'));
  const crashFile = crashDir && join(crashDir, 'crash.log');
  const removeCrashDir = () => crashDir && rmSync(crashDir, { recursive: true, force: true });
  let started: { testEnv: TestWorkflowEnvironment; httpPort: number };
  try {
    started = await startServer(binary.path, options, dynamicConfig, crashFile);
  } catch (error) {
    removeCrashDir();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', waiting);
  }
  const { testEnv, httpPort } = started;
  const description = `embedded Temporal server (${binary.source}: ${binary.path}) at ${testEnv.address}${options.postgres ? ` on PostgreSQL at ${options.postgres.address}${options.postgresVia ? ` through ${options.postgresVia}` : ''}` : ''}`;
  let connected: Awaited<ReturnType<typeof withClient>>;
  try {
    connected = await withClient(testEnv, 'default');
  } catch (error) {
    // A server that answered the SDK's start and died right after leaves only a connection timeout.
    const listening = await acceptsConnections(testEnv.address);
    const crash = crashFile && crashReason(crashFile);
    await testEnv.teardown().catch(() => {});
    removeCrashDir();
    if (listening) throw error;
    throw new ServerExitedError(`the Temporal server (${description}) exited while longrun needed it: ${crash || firstLine(error)}`);
  }
  return {
    kind: 'embedded',
    testEnv,
    address: testEnv.address,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    namespace: 'default',
    dynamicConfig,
    ...(options.postgres ? { postgres: options.postgres } : {}),
    description,
    ...connected,
    ...(crashFile ? { crashReason: () => crashReason(crashFile) } : {}),
    async teardown() {
      await connected.teardown();
      removeCrashDir();
    },
  };
}

/**
 * The first line of what the server wrote of its end: a fatal log line (JSON, its message and
 * error), or the runtime's `panic: ...` / `fatal error: ...`. Undefined when it wrote nothing.
 */
export function crashReason(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const line = text.split('\n').find((each) => each.trim() !== '');
  if (line === undefined) return undefined;
  try {
    const entry = JSON.parse(line) as { msg?: unknown; error?: unknown };
    if (typeof entry.msg === 'string') return typeof entry.error === 'string' ? `${entry.msg}: ${entry.error}` : entry.msg;
  } catch {
    // not a log line: the runtime's own words
  }
  return line.trim();
}

/** The server started, in up to START_ATTEMPTS attempts. */
async function startServer(
  path: string,
  options: EnvironmentOptions,
  dynamicConfig: DynamicConfig,
  crashFile: string | undefined,
): Promise<{ testEnv: TestWorkflowEnvironment; httpPort: number }> {
  for (let attempt = 1; ; attempt++) {
    const httpPort = options.httpPort ?? (await freeLoopbackPort());
    if (crashFile) rmSync(crashFile, { force: true }); // an earlier attempt's end is not this one's
    try {
      // The SDK starts the server with longrun's environment: the user's key is kept out of it.
      const testEnv = await withoutClusterSecrets(() =>
        TestWorkflowEnvironment.createLocal({
          server: {
            executable: { type: 'existing-path', path },
            ip: '127.0.0.1',
            namespace: 'default',
            ...(options.dbFilename ? { dbFilename: options.dbFilename } : {}),
            ...(options.port ? { port: options.port } : {}),
            log: {
              format: 'json',
              level: options.logLevel ?? process.env.LONGRUN_SERVER_LOG_LEVEL ?? 'never',
            },
            extraArgs: [
              '--http-port',
              String(httpPort),
              ...(options.postgres ? ['--postgres', options.postgresVia ?? options.postgres.address] : []),
              ...(crashFile ? ['--crash-file', crashFile] : []),
              ...dynamicConfigArgs(dynamicConfig),
            ],
          },
        }),
      );
      return { testEnv, httpPort };
    } catch (error) {
      // The SDK gives the server a fixed 5 s to answer; on a loaded machine (or when a free
      // port was taken between our pick and the server's bind) a fresh start usually succeeds.
      throwIfInterrupted(options.signal, 'starting the Temporal server');
      if (attempt >= START_ATTEMPTS) {
        const crash = crashFile && crashReason(crashFile);
        throw new EnvironmentError(`the Temporal server ${path} did not start (${attempt} attempts): ${crash || firstLine(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, START_PAUSE_MS));
    }
  }
}

/** Whether something accepts a TCP connection at `host:port` within a second. */
function acceptsConnections(address: string): Promise<boolean> {
  const at = address.lastIndexOf(':');
  return new Promise((resolve) => {
    const socket = connect({ host: address.slice(0, at), port: Number(address.slice(at + 1)) });
    const done = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
