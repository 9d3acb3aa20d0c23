/** `longrun scenario list|validate|new`: find, check and author scenario files. */
import { listScenarios, newScenario, validateScenarios } from '../../scenario/index.ts';
import type { Command } from '../command.ts';
import { parseCommandArgs } from '../parse-args.ts';
import { UsageError } from '../usage-error.ts';

export const scenarioCommand: Command = {
  usage: 'scenario list|validate|new',
  summary: 'list the built-in scenarios, validate scenario files, or start a new one',
  help: `Subcommands:
  scenario list                      the built-in scenarios with what each shows
  scenario validate <file>...        check files against the schema (one line per error, file:line:col)
  scenario new <name> [--from S]     write scenarios/<name>.yaml from a commented template or built-in S`,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === 'list') {
      parseCommandArgs(rest, {}, { min: 0, max: 0, names: '' });
      for (const s of listScenarios()) console.log(`${s.name.padEnd(22)} ${s.description.split('\n')[0]}`);
      return 0;
    }
    if (sub === 'validate') {
      const { positionals } = parseCommandArgs(rest, {}, { min: 1, max: Number.POSITIVE_INFINITY, names: 'scenario files' });
      const results = validateScenarios(positionals);
      for (const r of results) console.log(r.ok ? `ok  ${r.file}` : r.error);
      return results.every((r) => r.ok) ? 0 : 1;
    }
    if (sub === 'new') {
      const { values, positionals } = parseCommandArgs(
        rest,
        { from: { type: 'string' } },
        { min: 1, max: 1, names: 'the new scenario name' },
      );
      const file = newScenario(positionals[0] as string, values.from ? { from: values.from } : {});
      console.log(`wrote ${file}: edit it, then \`longrun scenario validate ${file}\` and \`longrun run ${file}\``);
      return 0;
    }
    throw new UsageError(sub ? `unknown subcommand "${sub}" (list, validate, new)` : 'which one: list, validate or new?');
  },
};
