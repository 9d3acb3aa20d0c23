/**
 * Writing and checking scenario files: `longrun scenario new` and `longrun scenario validate`.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { parseDocument } from 'yaml';
import { SCENARIO_JSON_SCHEMA_FILE } from './json-schema.ts';
import { loadScenarioFile } from './load-scenario.ts';
import { SCENARIOS_DIR, scenarioFile, scenarioFiles, scenarioName } from './registry.ts';
import { ScenarioError } from './scenario-error.ts';
import { scenarioSchema } from './scenario-schema.ts';
import { scenarioTemplate } from './scenario-template.ts';

export interface NewScenarioOptions {
  /** Copy this scenario (a built-in name or a path) instead of the template. */
  from?: string;
  /**
   * Where a bare name goes (default: `scenarios/` in the current directory: the built-in folder
   * in a clone's root, the user's own project where longrun is installed, never node_modules).
   */
  dir?: string;
}

/**
 * Writes `<dir>/<name>.yaml`, or the given path (its name is the file's), from the template
 * or as a copy; never overwrites. Returns the file written.
 */
export function newScenario(nameOrPath: string, options: NewScenarioOptions = {}): string {
  const isPath = /[/\\]/.test(nameOrPath) || extname(nameOrPath) !== '';
  const file = isPath ? nameOrPath : join(options.dir ?? 'scenarios', `${nameOrPath}.yaml`);
  const name = scenarioName(file);
  const nameCheck = scenarioSchema.shape.name.safeParse(name);
  if (!nameCheck.success) throw new ScenarioError(`scenario name ${JSON.stringify(name)}: use lower-case letters, digits and dashes`);
  const schemaRef = schemaReference(file);
  const text = options.from ? copyOf(scenarioFile(options.from), name, schemaRef) : scenarioTemplate(name, schemaRef);
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, text, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ScenarioError(`${file} already exists; not overwriting it`);
    throw error;
  }
  return file;
}

export interface ValidationResult {
  file: string;
  ok: boolean;
  error?: string;
}

/** Loads each file (a path, a folder of scenarios or a built-in name; default: every built-in). */
export function validateScenarios(paths: readonly string[] = []): ValidationResult[] {
  const files: string[] = [];
  const results: ValidationResult[] = [];
  for (const entry of paths.length > 0 ? paths : [SCENARIOS_DIR]) {
    try {
      files.push(...(isDirectory(entry) ? scenarioFiles(entry) : [scenarioFile(entry)]));
    } catch (error) {
      results.push({ file: entry, ok: false, error: (error as Error).message });
    }
  }
  for (const file of files) {
    try {
      loadScenarioFile(file);
      results.push({ file, ok: true });
    } catch (error) {
      results.push({ file, ok: false, error: (error as Error).message });
    }
  }
  return results;
}

/** The source's text with its name replaced (comments and layout kept) and the schema comment pointing from the new place. */
function copyOf(source: string, name: string, schemaRef: string): string {
  const text = readFileSync(source, 'utf8');
  const nameNode = parseDocument(text).get('name', true) as { range?: [number, number, number] } | undefined;
  const renamed = nameNode?.range ? `${text.slice(0, nameNode.range[0])}${name}${text.slice(nameNode.range[1])}` : `name: ${name}\n${text}`;
  const header = `# yaml-language-server: $schema=${schemaRef}`;
  const schemaComment = /^# yaml-language-server: \$schema=.*$/m;
  return schemaComment.test(renamed) ? renamed.replace(schemaComment, header) : `${header}\n${renamed}`;
}

/** The JSON Schema's path relative to the new file, as the yaml-language-server comment wants it. */
function schemaReference(file: string): string {
  const path = relative(dirname(file), SCENARIO_JSON_SCHEMA_FILE).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
