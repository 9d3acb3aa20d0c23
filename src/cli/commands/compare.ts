/**
 * `longrun compare BASE NEW`: two reports of one scenario (or two bench reports) side by side,
 * figure by figure, and exit 3 when one got worse than the baseline's past its threshold: a
 * nightly soak gated against last night, not only against fixed numbers.
 */
import {
  COMPARE_FIGURES,
  COMPARE_KEYS,
  type Comparison,
  compareReports,
  comparisonText,
  type Limits,
  mergeThresholds,
  parseThresholdList,
  readReport,
  scenarioLimits,
  type Thresholds,
  thresholdText,
} from '../../compare/index.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT } from '../exit-code.ts';
import { booleanFlag, defineCommand, valueFlag } from '../flags.ts';
import { UsageError } from '../usage-error.ts';

const FLAGS = {
  'max-regression': valueFlag({
    value: 'KEY=LIMIT,...',
    help: 'how far a figure may get worse: a percentage of the baseline (p99=20%), an amount in its unit (violations=0), or off',
  }),
  scenario: valueFlag({
    value: 'FILE|NAME',
    help: "the scenario whose compare.maxRegression sets the limits (default: the one the reports name, summary.json's scenarioFile)",
  }),
  json: booleanFlag('print the comparison as JSON'),
};

const KEYS_HELP = COMPARE_KEYS.map((key) => {
  const { what, unit, default: limit } = COMPARE_FIGURES[key];
  return `  ${key.padEnd(24)}${what} (${unit}; default ${limit})`;
}).join('\n');

export const compareCommand = defineCommand({
  ...COMMAND_LINES.compare,
  flags: FLAGS,
  positionals: { min: 2, max: 2, names: 'the two reports: BASE (the baseline) and NEW' },
  notes: `A report is a report folder or its summary.json (\`run\` and \`soak\` write them), or a bench report
(\`npm run bench\` writes reports/bench/<time>.json); both of one scenario, or both bench reports.
A figure regresses when it got worse than the baseline's by more than its limit; one that only one
report has (a server not sampled, an invariant the other did not judge) is shown, not judged.
A figure's limit is its default, over it the scenario's compare.maxRegression (the scenario the
reports were run from, or --scenario's), over both --max-regression: key by key, the last wins.

Figures (KEY, what, unit; default limit):
${KEYS_HELP}

Exit codes: 0 no figure regressed past its limit; 3 one did (each named on the last line);
2 bad input (a missing file, one that is not a report, reports of two scenarios, a scenario that
does not load), in one line.`,
  async run({ values, positionals: [basePath = '', newPath = ''] }) {
    let given: Partial<Thresholds> = {};
    try {
      given = values['max-regression'] === undefined ? {} : parseThresholdList(values['max-regression']);
    } catch (error) {
      throw new UsageError(`--max-regression ${(error as Error).message}`);
    }
    const base = readReport(basePath);
    const next = readReport(newPath);
    const scenario = scenarioLimits(base, next, values.scenario);
    const limits = mergeThresholds(scenario.thresholds, given);
    const comparison = compareReports(base, next, limits.thresholds, limits.from);
    comparison.notes.push(...scenario.notes);
    // The scenario is named where it set a limit; the column says which.
    const sources = {
      scenarioFile: Object.keys(scenario.thresholds).length > 0 ? scenario.file : undefined,
      flag: Object.keys(given).length > 0,
    };
    if (values.json) console.log(JSON.stringify(comparisonJson(comparison, limits, scenario.file), null, 2));
    else console.log(comparisonText(comparison, sources));
    return comparison.regressed.length > 0 ? EXIT.baselineRegression : EXIT.passed;
  },
});

function comparisonJson(comparison: Comparison, { thresholds, from }: Limits, scenarioFile: string | undefined) {
  const maxRegression = Object.fromEntries(COMPARE_KEYS.map((key) => [key, thresholdText(key, thresholds[key])]));
  return { ...comparison, maxRegression, maxRegressionFrom: from, ...(scenarioFile ? { limitsScenarioFile: scenarioFile } : {}) };
}
