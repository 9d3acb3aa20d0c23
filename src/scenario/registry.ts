/**
 * The built-in scenarios: every `scenarios/*.yaml`, known by file name. A scenario can also be
 * given as a path to any file.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { packagePath } from '../shared/package-paths.ts';
import { closestName } from './closest-name.ts';
import { loadScenarioFile } from './load-scenario.ts';
import { ScenarioError } from './scenario-error.ts';
import type { Scenario } from './scenario-schema.ts';

export const SCENARIOS_DIR = packagePath('scenarios/');

const YAML_EXTENSIONS = ['.yaml', '.yml'];

export interface ScenarioListing {
  name: string;
  description: string;
  file: string;
  /** Set when the file does not load; `description` is then empty. */
  error?: string;
}

/** Every scenario file of `dir` (the built-ins by default), by name; a broken file is listed with its error. */
export function listScenarios(dir: string = SCENARIOS_DIR): ScenarioListing[] {
  return scenarioFiles(dir).map((file) => {
    const name = scenarioName(file);
    try {
      return { name, description: loadScenarioFile(file).description, file };
    } catch (error) {
      return { name, description: '', file, error: (error as Error).message };
    }
  });
}

/** A built-in name (`smoke`) or a path to a scenario file; an unknown name lists the known ones. */
export function resolveScenario(nameOrPath: string, dir: string = SCENARIOS_DIR): { scenario: Scenario; file: string } {
  const file = scenarioFile(nameOrPath, dir);
  return { scenario: loadScenarioFile(file), file };
}

/** The file a name or path stands for; throws a one-line ScenarioError for an unknown name. */
export function scenarioFile(nameOrPath: string, dir: string = SCENARIOS_DIR): string {
  if (looksLikePath(nameOrPath)) return nameOrPath;
  const file = YAML_EXTENSIONS.map((ext) => join(dir, `${nameOrPath}${ext}`)).find((f) => existsSync(f));
  if (file) return file;
  const known = scenarioFiles(dir).map(scenarioName);
  const guess = closestName(nameOrPath, known);
  throw new ScenarioError(
    `unknown scenario ${JSON.stringify(nameOrPath)}${guess ? ` (did you mean ${guess}?)` : ''}: ` +
      `the built-in scenarios are ${known.join(', ') || 'none'}; or give a path to a .yaml file`,
  );
}

/** The YAML files of a directory, sorted. */
export function scenarioFiles(dir: string = SCENARIOS_DIR): string[] {
  return readdirSync(dir)
    .filter((entry) => YAML_EXTENSIONS.includes(extname(entry)) && statSync(join(dir, entry)).isFile())
    .sort()
    .map((entry) => join(dir, entry));
}

export function scenarioName(file: string): string {
  return basename(file, extname(file));
}

function looksLikePath(value: string): boolean {
  return value.includes('/') || value.includes('\\') || YAML_EXTENSIONS.includes(extname(value)) || value.startsWith('.');
}
