/**
 * The throwaway PostgreSQL cluster: up with Temporal's schema, stopped and started on the same
 * port and data, and gone (processes and folder) after a teardown, after a failed start of the
 * server on it and after a SIGKILL of the process that started it (the server as one process, and as four). Needs PostgreSQL (Debian's postgresql-15); about 40 s on two cores.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../chaos/testing/chaos-runs.ts';
import { childPids, findEmbeddedServerPid } from '../load/index.ts';
import { sleep } from '../shared/sleep.ts';
import { findPostgresBinDir, queryPostgres, startEnvironment, startPostgres } from './index.ts';

const CHILD = fileURLToPath(new URL('./testing/postgres-in-child.ts', import.meta.url));
const TSX_LOADER = createRequire(import.meta.url).resolve('tsx');

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

function accepts(address: string): boolean {
  const [host, port] = address.split(':') as [string, string];
  try {
    execFileSync(join(findPostgresBinDir(), 'pg_isready'), ['-q', '-h', host, '-p', port]);
    return true;
  } catch {
    return false;
  }
}

/** A process's start time (clock ticks since boot): with the pid, it names the process even after pids wrap. */
function startTime(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19];
  } catch {
    return undefined;
  }
}

type Watched = Array<{ pid: number; started?: string }>;

/** The pids' processes as they are now (taken before they are stopped), so that a pid a newer process took does not count. */
function watch(pids: number[]): Watched {
  return pids.map((pid) => ({ pid, started: startTime(pid) }));
}

const stillAlive = (watched: Watched) => watched.filter((p) => isAlive(p.pid) && startTime(p.pid) === p.started).map((p) => p.pid);

/** Waits (up to a minute) for the processes to end and the folder to go: the parent-death watch polls each second. */
async function gone(watched: Watched, dir: string): Promise<{ alive: number[]; dirLeft: boolean }> {
  for (let waited = 0; waited < 60_000 && (stillAlive(watched).length > 0 || existsSync(dir)); waited += 250) await sleep(250);
  return { alive: stillAlive(watched), dirLeft: existsSync(dir) };
}

describe('the throwaway PostgreSQL cluster', () => {
  it("runs unprivileged, has Temporal's schema migrated, survives a stop and start, and leaves nothing after teardown", async () => {
    const cluster = await startPostgres();
    const { dir, supervisorPid } = cluster;
    const firstPostmaster = cluster.postmasterPid;
    let watched: Watched = [];
    try {
      expect(cluster.address).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(dir).toMatch(/longrun-postgres-/);
      // PostgreSQL refuses root: under a root longrun it runs as the postgres account.
      const owner = execFileSync('ps', ['-o', 'user=', '-p', String(firstPostmaster)], { encoding: 'utf8' }).trim();
      expect(owner).toBe(process.getuid?.() === 0 ? 'postgres' : execFileSync('id', ['-un'], { encoding: 'utf8' }).trim());
      // The machine's own cluster is not it: ours lives in the temporary folder.
      expect(await queryPostgres(cluster.address, 'postgres', 'show data_directory')).toBe(join(dir, 'data'));
      for (const db of ['temporal', 'temporal_visibility']) {
        expect(Number(await queryPostgres(cluster.address, db, 'select count(*) from schema_update_history'))).toBeGreaterThan(5);
      }
      expect(await queryPostgres(cluster.address, 'temporal', "select to_regclass('history_node')")).toBe('history_node');

      await cluster.stop();
      expect(isAlive(firstPostmaster)).toBe(false);
      expect(accepts(cluster.address)).toBe(false);
      expect(existsSync(join(dir, 'data'))).toBe(true);
      await cluster.start();
      watched = watch([supervisorPid, cluster.postmasterPid]);
      expect(cluster.postmasterPid).not.toBe(firstPostmaster);
      expect(accepts(cluster.address)).toBe(true);
      expect(await queryPostgres(cluster.address, 'temporal', "select to_regclass('history_node')")).toBe('history_node');
    } finally {
      await cluster.teardown();
    }
    expect(await gone(watched, dir)).toEqual({ alive: [], dirLeft: false });
  });

  it('goes down with the server at teardown of its environment', async () => {
    const env = await startEnvironment({ persistence: 'postgres' });
    const postgres = env.postgres;
    expect(postgres).toBeDefined();
    const watched = watch([
      findEmbeddedServerPid(env.address) as number,
      postgres?.supervisorPid as number,
      postgres?.postmasterPid as number,
      ...childPids(postgres?.postmasterPid as number),
    ]);
    expect(stillAlive(watched)).toEqual(expect.arrayContaining(watched.slice(0, 3).map((p) => p.pid)));
    expect(env.description).toContain(`on PostgreSQL at ${postgres?.address}`);
    await env.teardown();
    expect(await gone(watched, postgres?.dir as string)).toEqual({ alive: [], dirLeft: false });
  });

  it('goes down when the server on it fails to start', async () => {
    // The supervisor makes its folder in TMPDIR as it was at the spawn: a folder of this test's own.
    const temp = mkdtempSync(join(tmpdir(), 'longrun-failed-start-'));
    chmodSync(temp, 0o755);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    const supervisors = () => childPids(process.pid).filter((pid) => / postgres --bin-dir /.test(commandLine(pid)));
    try {
      // A log level the server refuses: it exits at once, every attempt over.
      const starting = startEnvironment({ persistence: 'postgres', logLevel: 'loud' as 'info' });
      await expect(starting).rejects.toThrow(/the Temporal server .* did not start \(4 attempts\)/);
    } finally {
      // Assigning undefined would set the string "undefined": the next test's cluster would go there.
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(supervisors()).toEqual([]);
    expect(readdirSync(temp)).toEqual([]);
  });

  it.each(['single', 'services'])(
    'goes down with the process that started it when that process is SIGKILLed (topology %s)',
    async (topology) => {
      const child = spawn(process.execPath, ['--import', TSX_LOADER, CHILD, topology], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const started = await new Promise<{ server: number[]; supervisor: number; postgres: number[]; dir: string }>((resolve, reject) => {
        let buffered = '';
        child.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          if (buffered.includes('\n')) resolve(JSON.parse(buffered.slice(0, buffered.indexOf('\n'))));
        });
        child.once('exit', () => reject(new Error(`the child exited before it started PostgreSQL: ${stderr}`)));
      });
      const watched = watch([...started.server, started.supervisor, ...started.postgres]);
      // The server, the supervisor, the postmaster and its workers (a backend may come and go).
      expect(started.postgres.length).toBeGreaterThan(1);
      expect(started.server).toHaveLength(topology === 'services' ? 4 : 1);
      expect(stillAlive(watched)).toEqual(expect.arrayContaining([...started.server, started.supervisor, started.postgres[0]]));
      child.kill('SIGKILL');
      expect(await gone(watched, started.dir)).toEqual({ alive: [], dirLeft: false });
    },
  );
});

describe('a machine without PostgreSQL', () => {
  it('gets one line naming the package to install', () => {
    const error = (() => {
      try {
        findPostgresBinDir({}, mkdtempSync(join(tmpdir(), 'longrun-no-postgres-')));
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toContain('install the Debian package postgresql-15');
    expect(error?.message.split('\n')).toHaveLength(1);
  });

  it('names LONGRUN_POSTGRES_BIN_DIR when it has no initdb', () => {
    expect(() => findPostgresBinDir({ LONGRUN_POSTGRES_BIN_DIR: '/nonexistent' })).toThrow(
      'LONGRUN_POSTGRES_BIN_DIR=/nonexistent has no initdb',
    );
  });
});
