/**
 * Chaos on the database of server.persistence: postgres. restart-database: PostgreSQL stops (a
 * fast shutdown) mid-run and starts again on the same data. network on temporal-postgres:
 * Toxiproxy cuts the server's connection to PostgreSQL, and PostgreSQL counts the sessions it
 * lost. restart-server: the server crashes and comes back on the PostgreSQL that stayed up.
 * Every run ends by itself, every invariant holds, turns are neither lost nor done twice, no
 * process is left. Needs PostgreSQL (Debian's postgresql-15); about four minutes on two cores.
 */
import { describe, expect, it } from 'vitest';
import { resolveScenario } from '../scenario/index.ts';
import { type ChaosRun, expectPassed, RUNS_OUTLAST_A_LOST_TASK, runChaos, smallScenario, strikes } from './testing/chaos-runs.ts';

/** Every run completed all 14 turns of smallScenario: none lost, none done twice. */
function expectEveryTurn(run: ChaosRun): void {
  expect(run.summary.runs.map((r) => [r.outcome, r.turns.length])).toEqual(run.summary.runs.map(() => ['completed', 14]));
}

const postgresStarts = (run: ChaosRun) => run.events.filter((e) => e.type === 'process' && e.what === 'postgres');

describe('chaos on the database', () => {
  it('restart-database: runs survive PostgreSQL going down and coming back mid-run', async () => {
    const run = await runChaos(
      smallScenario('chaos-test-database', {
        server: { persistence: 'postgres' },
        runs: RUNS_OUTLAST_A_LOST_TASK,
        chaos: [{ action: 'restart-database', atTurn: 5, downFor: '1s' }],
      }),
    );
    expectPassed(run);
    expect(strikes(run.events)[0]?.detail).toMatch(
      /^PostgreSQL down for 1000 ms \(a fast shutdown\), accepting connections again \d+ ms after the stop$/,
    );
    expectEveryTurn(run);
  }, 300_000);

  it('scenarios/chaos-database-restart.yaml passes on v1', async () => {
    const run = await runChaos(resolveScenario('chaos-database-restart').scenario);
    expectPassed(run);
    expect(strikes(run.events)).toHaveLength(2);
  }, 300_000);

  it("network down on temporal-postgres: runs survive the server's PostgreSQL sessions being cut mid-run", async () => {
    const run = await runChaos(
      smallScenario('chaos-test-database-cut', {
        server: { persistence: 'postgres' },
        runs: RUNS_OUTLAST_A_LOST_TASK,
        chaos: [{ action: 'network', link: 'temporal-postgres', fault: 'down', for: '2s', atTurn: 5 }],
      }),
    );
    expectPassed(run);
    // PostgreSQL's own count: sessions whose client vanished without a goodbye, that is, cut.
    const detail = strikes(run.events)[0]?.detail ?? '';
    expect(detail).toMatch(/^temporal-postgres down for 2000 ms: PostgreSQL saw \d+ of the server's sessions cut$/);
    expect(Number(/saw (\d+)/.exec(detail)?.[1])).toBeGreaterThan(0);
    expectEveryTurn(run);
  }, 300_000);

  it('scenarios/chaos-database-network.yaml passes on v1', async () => {
    const run = await runChaos(resolveScenario('chaos-database-network').scenario);
    expectPassed(run);
    expect(strikes(run.events)).toHaveLength(2);
  }, 300_000);

  it('restart-server on postgres: the server crashes and comes back on the PostgreSQL that stayed up', async () => {
    const run = await runChaos(
      smallScenario('chaos-test-database-server', {
        server: { persistence: 'postgres' },
        runs: RUNS_OUTLAST_A_LOST_TASK,
        chaos: [{ action: 'restart-server', atTurn: 5, downFor: '1s' }],
      }),
    );
    expectPassed(run);
    expect(strikes(run.events)[0]?.detail).toMatch(/^server down for 1000 ms, answering again \d+ ms after the stop$/);
    // One cluster throughout: the runs' histories before the crash were read back from it after.
    expect(postgresStarts(run)).toHaveLength(1);
    expectEveryTurn(run);
  }, 300_000);

  it('refuses restart-database and temporal-postgres on SQLite, in one line', async () => {
    const restart = smallScenario('chaos-test-database-sqlite', { chaos: [{ action: 'restart-database', atTurn: 2 }] });
    await expect(runChaos(restart)).rejects.toThrow(
      'scenario chaos-test-database-sqlite: restart-database restarts the PostgreSQL cluster of server.persistence: postgres',
    );
    const cut = smallScenario('chaos-test-database-sqlite-cut', {
      chaos: [{ action: 'network', link: 'temporal-postgres', fault: 'down', for: '1s', atTurn: 2 }],
    });
    await expect(runChaos(cut)).rejects.toThrow(
      'scenario chaos-test-database-sqlite-cut: network on temporal-postgres cuts the embedded server from the PostgreSQL of server.persistence: postgres',
    );
  });
});
