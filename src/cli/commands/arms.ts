/**
 * `longrun arms [SCENARIO]`: the answers to Temporal's limits on the same plan and seed, one
 * after another, and the table of what each cost and what broke it first.
 */
import { CONDITIONS, type Condition } from '../../arms/arm-chaos.ts';
import { ARM_BINARIES, ARMS, type Arm, armOf } from '../../arms/arms.ts';
import { runArms } from '../../arms/run-arms.ts';
import { renderProgress, reportDirFor } from '../../report/index.ts';
import { resolveScenario } from '../../scenario/index.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT } from '../exit-code.ts';
import { booleanFlag, defineCommand, valueFlag } from '../flags.ts';
import { stopOnSignals } from '../stop-on-signals.ts';
import { UsageError } from '../usage-error.ts';

const DEFAULT_SCENARIO = 'arms';

const FLAGS = {
  arms: valueFlag({
    value: 'B,...',
    help: `the arms to run, by binary, in this order (default: ${ARM_BINARIES.join(',')})`,
  }),
  only: valueFlag({
    value: 'calm|chaos',
    help: 'run each arm only calm, or only under its own chaos (default: both, calm first)',
    parse: (raw) => ((CONDITIONS as readonly string[]).includes(raw) ? (raw as Condition) : undefined),
    want: CONDITIONS.join(' or '),
  }),
  'report-dir': valueFlag({ value: 'DIR', help: 'where the comparison folder goes', default: 'reports' }),
  json: booleanFlag('print the figures as JSON on stdout (progress stays on stderr)'),
};

/** The arms' binaries in a column as wide as the longest and two spaces. */
const BINARY_COLUMN = Math.max(...ARM_BINARIES.map((binary) => binary.length)) + 2;

function armsOf(list: string | undefined): Arm[] {
  if (list === undefined) return [...ARMS];
  const names = list.split(',').map((name) => name.trim());
  try {
    return names.map(armOf);
  } catch (error) {
    throw new UsageError(`--arms: ${(error as Error).message}`);
  }
}

export const armsCommand = defineCommand({
  ...COMMAND_LINES.arms,
  flags: FLAGS,
  positionals: { min: 0, max: 1, names: 'the scenario' },
  notes: `Runs the scenario (default: ${DEFAULT_SCENARIO}, the production month's largest runs scaled 1/16 with
the limits) once per arm and condition, each on its binary alone and on a server of its own,
every invariant held: calm, then under the arm's own chaos (worker kills and agent model faults
for every arm; compaction model faults for the state card; the store cut off and slowed for
External Storage; a run under chaos has a minute more than the scenario's timeout).
Arms (binary: answer):
${ARMS.map((arm) => `  ${arm.binary.padEnd(BINARY_COLUMN)}${arm.answer}`).join('\n')}
Prints the table and writes it (arms.md, arms.json) with every arm's report folder under
DIR/<time>-arms-<scenario>/. The scenario's own expectations, chaos steps and faults are left out.

Exit codes: 0 every arm ran; 2 bad input; 130 stopped (the arms run so far are in the table).`,
  async run({ values, positionals }) {
    const arms = armsOf(values.arms);
    const { scenario } = resolveScenario(positionals[0] ?? DEFAULT_SCENARIO);
    const dir = reportDirFor(`arms-${scenario.name}`, new Date(), values['report-dir']);
    const stop = stopOnSignals((signal) =>
      process.stderr.write(`\nlongrun: ${signal}: stopping this arm and writing the table of the arms so far (again to quit at once)\n`),
    );
    try {
      const result = await runArms(scenario, arms, {
        dir,
        signal: stop.signal,
        ...(values.only ? { conditions: [values.only] } : {}),
        onArm: (arm, condition, index, total) =>
          process.stderr.write(`longrun arms: ${index + 1}/${total} ${arm.answer} (${arm.binary}), ${condition}\n`),
        onProgress: (progress) => process.stderr.write(`${renderProgress(progress)}\n`),
      });
      if (values.json) console.log(JSON.stringify(result, null, 2));
      else console.log(`${result.table}\n\n${result.arms.length} arm runs in ${result.wallSeconds} s: ${dir}/arms.md`);
      return result.partial ? EXIT.interrupted : EXIT.passed;
    } finally {
      stop.release();
    }
  },
});
