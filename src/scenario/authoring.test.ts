import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newScenario, validateScenarios } from './authoring.ts';
import { SCENARIO_JSON_SCHEMA_FILE } from './json-schema.ts';
import { loadScenarioFile } from './load-scenario.ts';
import { SCENARIOS_DIR, scenarioFiles } from './registry.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'longrun-authoring-'));

describe('newScenario', () => {
  it('writes a commented template that loads as it stands', () => {
    const dir = tempDir();
    const file = newScenario('my-check', { dir });
    expect(file).toBe(join(dir, 'my-check.yaml'));
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=\S+scenarios\/schema\/scenario\.schema\.json$/);
    expect(text.match(/^#/gm)?.length).toBeGreaterThan(20);
    expect(loadScenarioFile(file)).toMatchObject({
      name: 'my-check',
      target: { binaries: ['v1'] },
      expect: [
        { on: 'v1', hold: 'all' },
        { on: 'v1', ends: 'completed' },
      ],
    });
  });

  it('puts a bare name in scenarios/ of the current directory', () => {
    const dir = tempDir();
    const previous = process.cwd();
    process.chdir(dir);
    try {
      expect(newScenario('mine')).toBe(join('scenarios', 'mine.yaml'));
      expect(loadScenarioFile(join(dir, 'scenarios', 'mine.yaml')).name).toBe('mine');
    } finally {
      process.chdir(previous);
    }
  });

  it('points the schema comment at the schema from wherever the file goes', () => {
    const dir = tempDir();
    const file = newScenario(join(dir, 'deeper', 'elsewhere.yaml'));
    const ref = /\$schema=(\S+)/.exec(readFileSync(file, 'utf8'))?.[1] as string;
    expect(join(dir, 'deeper', ref)).toBe(SCENARIO_JSON_SCHEMA_FILE);
  });

  it('copies a built-in under the new name, comments and all', () => {
    const dir = tempDir();
    const file = newScenario('my-incident', { from: 'tmprl1103', dir });
    const copy = readFileSync(file, 'utf8');
    const original = readFileSync(join(SCENARIOS_DIR, 'tmprl1103.yaml'), 'utf8');
    const schemaLine = (text: string) => text.split('\n')[0];
    const rest = (text: string) => text.split('\n').slice(1).join('\n');
    expect(rest(copy)).toBe(rest(original).replace(/^name: tmprl1103$/m, 'name: my-incident'));
    expect(join(dir, (schemaLine(copy) as string).replace(/^.*\$schema=/, ''))).toBe(SCENARIO_JSON_SCHEMA_FILE);
    const { name, ...copied } = loadScenarioFile(file);
    const { name: _, ...source } = loadScenarioFile(join(SCENARIOS_DIR, 'tmprl1103.yaml'));
    expect(name).toBe('my-incident');
    expect(copied).toEqual(source);
  });

  it('refuses to overwrite, and refuses a name a scenario cannot have', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'taken.yaml'), 'keep me');
    expect(() => newScenario('taken', { dir })).toThrow(`${join(dir, 'taken.yaml')} already exists; not overwriting it`);
    expect(readFileSync(join(dir, 'taken.yaml'), 'utf8')).toBe('keep me');
    expect(() => newScenario('Bad_Name', { dir })).toThrow('scenario name "Bad_Name": use lower-case letters, digits and dashes');
    expect(existsSync(join(dir, 'Bad_Name.yaml'))).toBe(false);
    expect(() => newScenario('copy', { dir, from: 'no-such-scenario' })).toThrow(/^unknown scenario "no-such-scenario"/);
  });
});

describe('validateScenarios', () => {
  it('validates every built-in by default', () => {
    const results = validateScenarios();
    expect(results.map((r) => r.file)).toEqual(scenarioFiles());
    expect(results.every((r) => r.ok)).toBe(true);
  });

  it('reports each file, folder entry or name with its one-line error', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'good.yaml'), 'name: good\nseed: 1\nexpect: [{on: v1, hold: all}]\n');
    writeFileSync(join(dir, 'bad.yaml'), 'name: bad\nseed: 1\nexpect: [{on: v1, hold: none}]\n');
    expect(validateScenarios([dir, 'smoke', 'nope'])).toEqual([
      { file: 'nope', ok: false, error: expect.stringMatching(/^unknown scenario "nope"/) },
      { file: join(dir, 'bad.yaml'), ok: false, error: expect.stringMatching(/^.*bad\.yaml:3:25: expect\[0\]\.hold: expected "all" or /) },
      { file: join(dir, 'good.yaml'), ok: true },
      { file: join(SCENARIOS_DIR, 'smoke.yaml'), ok: true },
    ]);
  });
});
