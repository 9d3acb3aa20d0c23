/**
 * `longrun mutants`: run every broken control of the catalogue and say whether the invariants
 * caught it. Exits non-zero when any mutant is missed.
 */
import { startEnvironment } from '../../environment/index.ts';
import { MUTANT_SERVER, MUTANTS } from '../../mutants/catalogue.ts';
import { runScenario } from '../../runner/run-scenario.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { verdictExit } from '../exit-code.ts';
import { booleanFlag, defineCommand } from '../flags.ts';

export const mutantsCommand = defineCommand({
  ...COMMAND_LINES.mutants,
  flags: { json: booleanFlag('print the score and every mutant as JSON') },
  positionals: { min: 0, max: 0, names: '' },
  notes: 'Each mutant is a deliberately broken kernel binary; it is caught when the invariants named for it fail.',
  async run({ values }) {
    const env = await startEnvironment({ dynamicConfig: MUTANT_SERVER });
    const rows: { binary: string; catches: string[]; caught: boolean; detail: string }[] = [];
    try {
      for (const mutant of MUTANTS) {
        // Most mutants share one server; one that needs other limits gets a server of its own.
        const shared = JSON.stringify(mutant.scenario.server.dynamicConfig) === JSON.stringify(MUTANT_SERVER);
        const summary = await runScenario(mutant.scenario, shared ? { environment: env } : {});
        const expectation = summary.expectations[0];
        const row = {
          binary: mutant.binary,
          catches: [...mutant.catches],
          caught: expectation?.met === true,
          detail: expectation?.detail ?? 'no verdict',
        };
        rows.push(row);
        if (!values.json) console.log(`${row.caught ? 'caught' : 'MISSED'}  ${row.binary.padEnd(28)} ${row.detail}`);
      }
    } finally {
      await env.teardown();
    }
    const caught = rows.filter((r) => r.caught).length;
    const score = `${caught}/${rows.length} (${Math.round((100 * caught) / rows.length)}%)`;
    if (values.json) console.log(JSON.stringify({ score, mutants: rows }, null, 2));
    else console.log(`score ${score}`);
    return verdictExit(caught === rows.length);
  },
});
