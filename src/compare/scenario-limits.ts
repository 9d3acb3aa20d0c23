/**
 * The limits a scenario sets for `longrun compare` (`compare.maxRegression`): of the scenario
 * `--scenario` names, or else of the one the reports were run from (summary.json's
 * `scenarioFile`, or the built-in of the reports' scenario name).
 */
import { existsSync } from 'node:fs';
import { loadScenarioFile } from '../scenario/load-scenario.ts';
import { SCENARIOS_DIR, scenarioFile } from '../scenario/registry.ts';
import { ScenarioError } from '../scenario/scenario-error.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { type ComparedReport, ReportInputError } from './read-report.ts';
import { scenarioThresholds, type Thresholds } from './thresholds.ts';

export interface ScenarioLimits {
  /** The scenario file read; undefined when none was found. */
  file: string | undefined;
  /** The limits it sets (none when it has no `compare` block). */
  thresholds: Partial<Thresholds>;
  /** What the reader should know: no file found, a scenario of another name. */
  notes: string[];
}

/**
 * `named` (a path or a built-in name) when given, else the new report's scenario file, else the
 * baseline's, else the built-in of that name. A file named by a report but gone from this machine
 * (a report copied from elsewhere) is passed over; one that is there and does not load is bad
 * input: a ReportInputError of one line, naming the file.
 */
export function scenarioLimits(base: ComparedReport, next: ComparedReport, named?: string, dir = SCENARIOS_DIR): ScenarioLimits {
  const notes: string[] = [];
  const name = next.scenario;
  let file: string | undefined;
  if (named !== undefined) file = load(() => scenarioFile(named, dir), '--scenario');
  else if (name !== undefined) {
    file = [next.scenarioFile, base.scenarioFile].find((f): f is string => f !== undefined && existsSync(f)) ?? builtIn(name, dir);
    if (file === undefined) {
      const gone = next.scenarioFile ?? base.scenarioFile;
      notes.push(
        `${gone ? `the scenario file ${gone} is not here` : `no scenario file for ${name}`}: default limits (--scenario FILE reads one)`,
      );
    }
  }
  if (file === undefined) return { file, thresholds: {}, notes };
  const path = file;
  const scenario: Scenario = load(() => loadScenarioFile(path), path);
  if (name !== undefined && scenario.name !== name)
    notes.push(`the scenario read (${file}) is ${scenario.name}, the reports are of ${name}`);
  return { file, thresholds: scenarioThresholds(scenario.compare), notes };
}

/** The built-in scenario file of that name, when there is one. */
function builtIn(name: string, dir: string): string | undefined {
  try {
    return scenarioFile(name, dir);
  } catch {
    return undefined;
  }
}

/** A scenario's problems as one line: the first, and how many more. */
function load<T>(read: () => T, what: string): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    const [first = what, ...more] = error.lines;
    const tail = more.length > 0 ? ` (and ${more.length} more: longrun scenario validate lists them)` : '';
    throw new ReportInputError(`${first.startsWith(what) ? '' : `${what}: `}${first}${tail}`);
  }
}
