import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AgentRunHistory } from '../../checks/testing/index.ts';
import { loadScenarioFile } from '../../scenario/index.ts';
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

  it('from-history takes history files, --out, --binary, --scale in (0, 1] and the source limits', () => {
    const parsed = SCENARIO_SUBCOMMANDS['from-history'].parse(['a.json', 'b.json', '--out', 'x.yaml', '--binary', 'v0', '--scale', '0.25']);
    expect(parsed.positionals).toEqual(['a.json', 'b.json']);
    expect(parsed.values).toMatchObject({ out: 'x.yaml', binary: 'v0', scale: 0.25 });
    expect(SCENARIO_SUBCOMMANDS['from-history'].parse(['a.json', '--blob-limit', '2097152']).values['blob-limit']).toBe(2097152);
    expect(() => SCENARIO_SUBCOMMANDS['from-history'].parse(['a.json', '--scale', '2'])).toThrow(/--scale/);
    expect(() => SCENARIO_SUBCOMMANDS['from-history'].parse([])).toThrow('missing history files');
    expect(SCENARIO_SUBCOMMANDS['from-history'].parse(['a.json', '--time-scale', '0.01']).values['time-scale']).toBe(0.01);
    expect(SCENARIO_SUBCOMMANDS['from-history'].parse(['a.json', '--time-scale', '0']).values['time-scale']).toBe(0);
    expect(() => SCENARIO_SUBCOMMANDS['from-history'].parse(['a.json', '--time-scale', '-1'])).toThrow(/--time-scale/);
  });

  it('from-history writes the scenario of a run, and asks for the binary when its task queue names none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-from-history-'));
    try {
      const run = new AgentRunHistory().turns(3);
      run.history.workflowTaskFailed(
        'PAYLOADS_TOO_LARGE',
        '[TMPRL1103] Attempted to upload payloads with size that exceeded the error limit.',
      );
      const file = join(dir, 'run.json');
      writeFileSync(file, JSON.stringify(run.histories()[0]));
      await expect(scenarioCommand.run(['from-history', file])).rejects.toThrow(/names none of v0, .*: give --binary/);
      await expect(scenarioCommand.run(['from-history', file, '--binary', 'v9'])).rejects.toThrow('--binary v9: not one of v0, ');
      const out = join(dir, 'replay.yaml');
      const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
      expect(await scenarioCommand.run(['from-history', file, '--binary', 'v1', '--out', out])).toBe(0);
      stderr.mockRestore();
      const scenario = loadScenarioFile(out);
      expect(scenario).toMatchObject({
        target: { binaries: ['v1'] },
        expect: [{ on: 'v1', reproduces: { incident: 'tmprl1103', atTurn: 4, within: 1 } }],
      });
      expect(scenario.shape.turnsProfile).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
