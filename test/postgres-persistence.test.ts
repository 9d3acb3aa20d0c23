/**
 * The incident scenarios on the persistence production runs on: `smoke`, `tmprl1103` and
 * `history-size` on a throwaway PostgreSQL cluster (server.persistence: postgres) meet the same
 * expectations as on SQLite, their histories are rows in PostgreSQL, and summary.load samples the
 * database beside the server. Needs Debian's
 * postgresql-15; about a minute and a half on two cores.
 */
import { describe, expect, it } from 'vitest';
import { queryPostgres } from '../src/environment/index.ts';
import { resolveScenario, runScenario, startEnvironment } from '../src/index.ts';

async function historyRows(address: string): Promise<number> {
  return Number(await queryPostgres(address, 'temporal', 'select count(*) from history_node'));
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
      expect(await historyRows(environment.postgres?.address as string)).toBeGreaterThan(0);
      // summary.load has the database beside the server: the postmaster and its processes.
      expect(summary.load?.database?.pids).toEqual([environment.postgres?.postmasterPid]);
      expect(summary.load?.database?.rssBytes.max).toBeGreaterThan(0);
      expect(summary.load?.server?.rssBytes.max).toBeGreaterThan(0);
    } finally {
      await environment.teardown();
    }
  });
});
