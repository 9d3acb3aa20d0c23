/** `longrun scenario list|validate|new|from-history`: find, check and author scenario files, or write one from a history. */
import { listScenarios, newScenario, validateScenarios } from '../../scenario/index.ts';
import type { Command } from '../command.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT, verdictExit } from '../exit-code.ts';
import { defineCommand, flagsHelp, valueFlag } from '../flags.ts';
import { UsageError } from '../usage-error.ts';
import { fromHistoryCommand } from './scenario-from-history.ts';

export const SCENARIO_SUBCOMMANDS = {
  list: defineCommand({
    usage: 'scenario list',
    summary: 'the built-in scenarios with what each shows',
    flags: {},
    positionals: { min: 0, max: 0, names: '' },
    async run() {
      for (const s of listScenarios()) console.log(`${s.name.padEnd(22)} ${s.description.split('\n')[0]}`);
      return EXIT.passed;
    },
  }),
  validate: defineCommand({
    usage: 'scenario validate <file>...',
    summary: 'check files against the schema (a line per problem, file:line:col); exit 1 when one is invalid',
    flags: {},
    positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'scenario files' },
    async run({ positionals }) {
      const results = validateScenarios(positionals);
      for (const r of results) console.log(r.ok ? `ok  ${r.file}` : r.error);
      return verdictExit(results.every((r) => r.ok));
    },
  }),
  new: defineCommand({
    usage: 'scenario new <name> [--from S]',
    summary: 'write scenarios/<name>.yaml from a commented template or built-in S',
    flags: { from: valueFlag({ value: 'S', help: 'copy the built-in scenario S (or a file) instead of the template' }) },
    positionals: { min: 1, max: 1, names: 'the new scenario name' },
    async run({ values, positionals }) {
      const file = newScenario(positionals[0] as string, values.from ? { from: values.from } : {});
      console.log(`wrote ${file}: edit it, then \`longrun scenario validate ${file}\` and \`longrun run ${file}\``);
      return EXIT.passed;
    },
  }),
  'from-history': fromHistoryCommand,
};

export const scenarioCommand: Command = {
  ...COMMAND_LINES.scenario,
  help: `Subcommands:\n${Object.values(SCENARIO_SUBCOMMANDS)
    .map((c) =>
      [
        `  ${c.usage.padEnd(34)} ${c.summary}`,
        flagsHelp(c.flags)
          .replace(/^Options:\n/, '')
          .replace(/^/gm, '    '),
      ]
        .filter((l) => l.trim())
        .join('\n'),
    )
    .join('\n')}`,
  async run([sub, ...rest]) {
    const command =
      sub !== undefined && Object.hasOwn(SCENARIO_SUBCOMMANDS, sub)
        ? SCENARIO_SUBCOMMANDS[sub as keyof typeof SCENARIO_SUBCOMMANDS]
        : undefined;
    if (!command)
      throw new UsageError(
        sub ? `unknown subcommand "${sub}" (list, validate, new, from-history)` : 'which one: list, validate, new or from-history?',
      );
    return command.run(rest);
  },
};
