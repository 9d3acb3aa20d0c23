/**
 * The incident scenarios on the persistence production runs on: `smoke`, `tmprl1103` and
 * `history-size` on a throwaway PostgreSQL cluster (server.persistence: postgres) meet the same
 * expectations as on SQLite, and their histories are rows in PostgreSQL. Needs Debian's
 * postgresql-15; about a minute and a half on two cores.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPostgresBinDir } from '../src/environment/index.ts';
import { resolveScenario, runScenario, startEnvironment } from '../src/index.ts';

function historyRows(address: string): number {
  const [host, port] = address.split(':') as [string, string];
  const psql = join(findPostgresBinDir(), 'psql');
  const args = ['-h', host, '-p', port, '-U', 'temporal', '-d', 'temporal', '-Atc', 'select count(*) from history_node'];
  return Number(execFileSync(psql, args, { encoding: 'utf8' }).trim());
}

describe('server.persistence: postgres', () => {
  it.each(['smoke', 'tmprl1103', 'history-size'])('%s meets its expectations', async (name) => {
    const { scenario } = resolveScenario(name);
    const onPostgres = { ...scenario, server: { ...scenario.server, persistence: 'postgres' as const } };
    const environment = await startEnvironment(onPostgres.server);
    try {
      expect(environment.postgres).toBeDefined();
      const summary = await runScenario(onPostgres, { environment });
      expect(summary.expectations.filter((e) => !e.met).map((e) => `${e.description}: ${e.detail}`)).toEqual([]);
      expect(summary.passed).toBe(true);
      expect(summary.runs.length).toBeGreaterThanOrEqual(scenario.runs.count);
      expect(historyRows(environment.postgres?.address as string)).toBeGreaterThan(0);
    } finally {
      await environment.teardown();
    }
  });
});
