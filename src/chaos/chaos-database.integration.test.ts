/**
 * restart-database: the PostgreSQL under the embedded server (server.persistence: postgres)
 * stops (a fast shutdown) in the middle of runs and starts again on the same data: every run
 * ends by itself, every invariant holds, turns are neither lost nor done twice, no process is
 * left. Needs PostgreSQL (Debian's postgresql-15); about a minute and a half on two cores.
 */
import { describe, expect, it } from 'vitest';
import { resolveScenario } from '../scenario/index.ts';
import { expectPassed, runChaos, smallScenario, strikes } from './testing/chaos-runs.ts';

describe('chaos on the database', () => {
  it('restart-database: runs survive PostgreSQL going down and coming back mid-run', async () => {
    const run = await runChaos(
      smallScenario('chaos-test-database', {
        server: { persistence: 'postgres' },
        chaos: [{ action: 'restart-database', atTurn: 5, downFor: '1s' }],
      }),
    );
    expectPassed(run);
    expect(strikes(run.events)[0]?.detail).toMatch(
      /^PostgreSQL down for 1000 ms \(a fast shutdown\), accepting connections again \d+ ms after the stop$/,
    );
    expect(run.summary.runs.every((r) => r.outcome === 'completed' && r.turns.length === 14)).toBe(true);
  });

  it('scenarios/chaos-database-restart.yaml passes on v1', async () => {
    const run = await runChaos(resolveScenario('chaos-database-restart').scenario);
    expectPassed(run);
    expect(strikes(run.events)).toHaveLength(2);
  });

  it('refuses restart-database on SQLite, in one line', async () => {
    const scenario = smallScenario('chaos-test-database-sqlite', { chaos: [{ action: 'restart-database', atTurn: 2 }] });
    await expect(runChaos(scenario)).rejects.toThrow(
      'scenario chaos-test-database-sqlite: restart-database restarts the PostgreSQL cluster of server.persistence: postgres',
    );
  });
});
