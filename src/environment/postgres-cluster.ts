/**
 * A throwaway PostgreSQL cluster for the embedded server (`server.persistence: postgres`): the
 * `postgres` subcommand of tools/temporal-server runs initdb into a temporary folder, starts
 * PostgreSQL on a free loopback port (as the `postgres` account when longrun is root: PostgreSQL
 * refuses root), migrates Temporal's schema with the server module's SQL tool, and removes it all
 * when told, when its stdin closes or when longrun dies. Never the machine's own cluster.
 */
import { type ChildProcessByStdio, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { childEnv } from '../shared/child-env.ts';
import { throwIfInterrupted } from '../shared/interrupted.ts';
import { resolveTemporalBinary } from './temporal-binary.ts';

export class PostgresError extends Error {
  override name = 'PostgresError';
}

export interface PostgresCluster {
  /** 127.0.0.1:port, the same across a stop and start. */
  address: string;
  /** The temporary folder with the data, the socket and postgres.log. */
  dir: string;
  /** The postmaster's pid (changes with each start). */
  postmasterPid: number;
  /** The supervising process: PostgreSQL ends with it. */
  supervisorPid: number;
  /** A fast shutdown; the data stays. */
  stop(): Promise<void>;
  /** Starts again on the same folder and port; resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops PostgreSQL and removes the folder. */
  teardown(): Promise<void>;
}

const DEBIAN_BIN_DIRS = '/usr/lib/postgresql';
/** The oldest release Temporal's postgres12 plugin supports. */
const MIN_MAJOR = 12;

/** LONGRUN_POSTGRES_BIN_DIR, else the newest /usr/lib/postgresql/<major>/bin with initdb. */
export function findPostgresBinDir(env: NodeJS.ProcessEnv = process.env, root = DEBIAN_BIN_DIRS): string {
  const fromEnv = env.LONGRUN_POSTGRES_BIN_DIR;
  if (fromEnv) {
    if (!existsSync(join(fromEnv, 'initdb'))) throw new PostgresError(`LONGRUN_POSTGRES_BIN_DIR=${fromEnv} has no initdb`);
    return fromEnv;
  }
  const majors = existsSync(root)
    ? readdirSync(root)
        .map(Number)
        .filter((major) => major >= MIN_MAJOR && existsSync(join(root, String(major), 'bin', 'initdb')))
        .sort((a, b) => b - a)
    : [];
  const newest = majors[0];
  if (newest === undefined) {
    throw new PostgresError(
      `server.persistence postgres needs PostgreSQL >= ${MIN_MAJOR}: install the Debian package postgresql-15 (apt-get install postgresql-15) or set LONGRUN_POSTGRES_BIN_DIR to a folder with initdb and postgres`,
    );
  }
  return join(root, String(newest), 'bin');
}

type Supervisor = ChildProcessByStdio<Writable, Readable, Readable>;

/** `ready postgres=127.0.0.1:PORT pid=PID dir=DIR`, the supervisor's answer to a start. */
const READY = /^ready postgres=(\S+) pid=(\d+) dir=(\S+)$/;

/** `signal` aborts the start (initdb, the schema): the supervisor removes what it made, then this throws InterruptedError. */
export async function startPostgres(signal?: AbortSignal): Promise<PostgresCluster> {
  const during = 'starting PostgreSQL (initdb, the schema)';
  throwIfInterrupted(signal, during);
  const binDir = findPostgresBinDir();
  const binary = await resolveTemporalBinary();
  const child: Supervisor = spawn(binary.path, ['postgres', '--bin-dir', binDir], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: childEnv(),
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (waitingFor: string): Promise<string> => {
    const line = await lines.next();
    if (line.done) {
      await exited;
      const why = stderr.trim().split('\n').at(-1) || `exit ${child.exitCode ?? child.signalCode}`;
      throw new PostgresError(`the PostgreSQL supervisor (${binary.path} postgres) ended before ${waitingFor}: ${why}`);
    }
    return line.value;
  };
  const ready = async () => {
    const line = await nextLine('PostgreSQL was ready');
    const match = READY.exec(line);
    if (!match) throw new PostgresError(`the PostgreSQL supervisor said ${JSON.stringify(line)}, not ready`);
    return { address: match[1] as string, pid: Number(match[2]), dir: match[3] as string };
  };
  const interrupt = () => child.kill('SIGTERM');
  signal?.addEventListener('abort', interrupt, { once: true });
  const first = await ready()
    .catch(async (error: unknown) => {
      child.kill('SIGTERM');
      if (!signal?.aborted) throw error;
      // Gone only once the supervisor has stopped PostgreSQL and removed the folder.
      await exited;
      throwIfInterrupted(signal, during);
      throw error;
    })
    .finally(() => signal?.removeEventListener('abort', interrupt));
  const cluster: PostgresCluster = {
    address: first.address,
    dir: first.dir,
    postmasterPid: first.pid,
    supervisorPid: child.pid as number,
    async stop() {
      child.stdin.write('stop\n');
      const answer = await nextLine('it stopped PostgreSQL');
      if (answer !== 'stopped') throw new PostgresError(`the PostgreSQL supervisor answered ${answer} to stop`);
    },
    async start() {
      child.stdin.write('start\n');
      cluster.postmasterPid = (await ready()).pid;
    },
    async teardown() {
      if (child.exitCode === null && child.signalCode === null) child.stdin.end();
      await exited;
    },
  };
  return cluster;
}

/** psql's unaligned answer to `sql`, as the cluster's superuser over loopback TCP. */
export async function queryPostgres(address: string, database: string, sql: string): Promise<string> {
  const [host, port] = address.split(':') as [string, string];
  const psql = join(findPostgresBinDir(), 'psql');
  const { stdout } = await promisify(execFile)(psql, ['-h', host, '-p', port, '-U', 'temporal', '-d', database, '-Atc', sql]);
  return stdout.trim();
}
