/**
 * Ctrl-C while `longrun run` starts a scenario on PostgreSQL (server.persistence: postgres): a
 * SIGINT to the longrun process during initdb, during Temporal's schema setup and during the
 * server's start ends it with one line and exit 130, and leaves no process it started and no
 * PostgreSQL folder (the temporary folder is the test's own, through TMPDIR). Needs Debian's
 * postgresql-15; about two minutes on two cores. And a start that fails before the server
 * (PostgreSQL missing) ends with its one line too: longrun exits.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aliveAfter } from '../src/chaos/testing/chaos-runs.ts';
import { childPids } from '../src/load/index.ts';
import { longrun } from './longrun-cli.ts';

const SCENARIO = `name: interrupted-on-postgres
seed: 3
server:
  persistence: postgres
runs:
  count: 2
  concurrency: 2
  timeout: 60s
shape:
  overrides:
    turns: 4
expect:
  - on: v1
    hold: all
`;

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

function descendants(pid: number): number[] {
  const children = childPids(pid);
  return [...children, ...children.flatMap(descendants)];
}

/** The moments of a start on PostgreSQL, each by the command line of a process that runs only then. */
const MOMENTS = {
  initdb: /\/initdb -D /,
  'schema setup': / postgres-schema --address /,
  'server start': / server start-dev .*--postgres /,
};

describe('Ctrl-C while longrun starts a scenario on PostgreSQL', () => {
  it.each(Object.keys(MOMENTS) as (keyof typeof MOMENTS)[])('during %s: one line, exit 130, nothing left', async (moment) => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-interrupt-pg-'));
    // PostgreSQL runs as the postgres account under a root longrun: it must reach its folder in here.
    chmodSync(dir, 0o755);
    const file = join(dir, 'scenario.yaml');
    writeFileSync(file, SCENARIO);
    const temp = join(dir, 'tmp');
    mkdirSync(temp, { mode: 0o755 });
    const seen = new Set<number>();
    let child: ChildProcess | undefined;
    let struck = '';
    const watcher = setInterval(() => {
      if (!child?.pid || struck) return;
      for (const pid of descendants(child.pid)) {
        seen.add(pid);
        if (MOMENTS[moment].test(commandLine(pid))) {
          struck = commandLine(pid);
          child.kill('SIGINT');
        }
      }
    }, 20);
    const result = await longrun(['run', file, '--report-dir', join(dir, 'reports')], {
      env: { TMPDIR: temp },
      onStderr: (_, process) => {
        child ??= process;
      },
    }).finally(() => clearInterval(watcher));
    expect(struck, result.stderr).not.toBe('');
    expect(result.code, result.stderr).toBe(130);
    // The scenario's name, then the one line: no "partial report", no stack trace. A stop during
    // the server's own start says first that it waits for that start to be over.
    const waiting = /^longrun: stopping once the Temporal server's start is over /;
    const lines = result.stderr.trim().split('\n');
    if (moment !== 'server start') expect(lines.filter((line) => waiting.test(line))).toEqual([]);
    expect(lines.filter((line) => !waiting.test(line))).toEqual([
      'longrun: interrupted-on-postgres',
      expect.stringMatching(/^longrun run: interrupted while starting .+; everything it had started is stopped and removed$/),
    ]);
    expect(result.stdout).toBe('');
    expect(await aliveAfter([...seen], 0)).toEqual([]);
    expect(readdirSync(temp).filter((name) => name.startsWith('longrun-postgres-'))).toEqual([]);
    expect(readdirSync(dir)).not.toContain('reports');
  });

  it('a start that fails before the server (no initdb): its one line, exit 2, and longrun exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-no-initdb-'));
    const file = join(dir, 'scenario.yaml');
    writeFileSync(file, SCENARIO);
    // The SDK runtime, once in, would keep the process alive after the error: it goes in only with the server.
    const result = await longrun(['run', file, '--report-dir', join(dir, 'reports')], { env: { LONGRUN_POSTGRES_BIN_DIR: dir } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'longrun: interrupted-on-postgres',
      `longrun run: LONGRUN_POSTGRES_BIN_DIR=${dir} has no initdb`,
    ]);
  });
});
