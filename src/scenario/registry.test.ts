import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listScenarios, resolveScenario, SCENARIOS_DIR, scenarioFile } from './registry.ts';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'longrun-registry-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const VALID = (name: string) => `name: ${name}\ndescription: the ${name} one\nseed: 1\nexpect: [{on: v1, hold: all}]\n`;

describe('the scenario registry', () => {
  it('resolves a built-in name to its file under scenarios/', () => {
    const { scenario, file } = resolveScenario('smoke');
    expect(file).toBe(join(SCENARIOS_DIR, 'smoke.yaml'));
    expect(scenario.name).toBe('smoke');
  });

  it('resolves a path to any file', () => {
    const dir = folder({ 'mine.yml': VALID('mine') });
    expect(resolveScenario(join(dir, 'mine.yml')).scenario.description).toBe('the mine one');
  });

  it('names the known scenarios, and the likely one, for an unknown name', () => {
    const dir = folder({ 'alpha.yaml': VALID('alpha'), 'beta.yaml': VALID('beta') });
    expect(() => scenarioFile('alpah', dir)).toThrow(
      'unknown scenario "alpah" (did you mean alpha?): the built-in scenarios are alpha, beta; or give a path to a .yaml file',
    );
    expect(() => scenarioFile('zzz', dir)).toThrow(/^unknown scenario "zzz": the built-in scenarios are alpha, beta;/);
  });

  it('lists every YAML file of a folder with its description, and a broken one with its error', () => {
    const dir = folder({ 'b.yaml': VALID('b'), 'a.yml': VALID('a'), 'broken.yaml': 'name: broken\n', 'notes.txt': 'not a scenario' });
    expect(listScenarios(dir)).toEqual([
      { name: 'a', description: 'the a one', file: join(dir, 'a.yml') },
      { name: 'b', description: 'the b one', file: join(dir, 'b.yaml') },
      {
        name: 'broken',
        description: '',
        file: join(dir, 'broken.yaml'),
        error: [
          `${join(dir, 'broken.yaml')}:1:1: seed: missing (expected an integer from 0 to 4294967295)`,
          `${join(dir, 'broken.yaml')}:1:1: expect: missing (expected a non-empty list)`,
        ].join('\n'),
      },
    ]);
  });
});
