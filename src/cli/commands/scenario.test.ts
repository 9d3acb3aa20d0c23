import { describe, expect, it } from 'vitest';
import { SCENARIO_SUBCOMMANDS, scenarioCommand } from './scenario.ts';

describe('scenario parses its subcommands', () => {
  it('list takes nothing, validate takes files, new takes a name and --from', () => {
    expect(SCENARIO_SUBCOMMANDS.list.parse([])).toEqual({ values: {}, positionals: [] });
    expect(() => SCENARIO_SUBCOMMANDS.list.parse(['--json'])).toThrow('unknown option --json: this command takes no options');
    expect(SCENARIO_SUBCOMMANDS.validate.parse(['a.yaml', 'b.yaml']).positionals).toEqual(['a.yaml', 'b.yaml']);
    expect(() => SCENARIO_SUBCOMMANDS.validate.parse([])).toThrow('missing scenario files');
    expect(SCENARIO_SUBCOMMANDS.new.parse(['mine', '--from', 'tmprl1103'])).toEqual({
      values: { from: 'tmprl1103' },
      positionals: ['mine'],
    });
    expect(SCENARIO_SUBCOMMANDS.new.parse(['mine']).values).toEqual({ from: undefined });
    expect(() => SCENARIO_SUBCOMMANDS.new.parse(['a', 'b'])).toThrow('unexpected argument "b"');
  });

  it('refuses an unknown or missing subcommand', async () => {
    await expect(scenarioCommand.run(['frob'])).rejects.toThrow('unknown subcommand "frob" (list, validate, new, from-history)');
    await expect(scenarioCommand.run(['toString'])).rejects.toThrow('unknown subcommand "toString"');
    await expect(scenarioCommand.run([])).rejects.toThrow('which one: list, validate, new or from-history?');
  });

  it('lists every subcommand and its flags in its help', () => {
    for (const sub of Object.values(SCENARIO_SUBCOMMANDS)) expect(scenarioCommand.help).toContain(sub.usage);
    expect(scenarioCommand.help).toContain('--from S');
  });
});
