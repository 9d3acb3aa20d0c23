/**
 * `runArms`: one scenario on every arm in turn, each on a server of its own (so no arm runs on a
 * server another one loaded), each with its own report folder, and the table of what each cost
 * and what broke it. An arm that cannot be run (its server will not start) stops the comparison:
 * the arms run before it keep their reports and figures.
 */
import { join } from 'node:path';
import { writeReport } from '../report/index.ts';
import type { Summary } from '../result/index.ts';
import { type RunScenarioOptions, runScenario } from '../runner/run-scenario.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { atomicWriteFile } from '../shared/atomic-write.ts';
import { CONDITIONS, type Condition, chaosLabel } from './arm-chaos.ts';
import { type ArmFigures, armFigures } from './arm-figures.ts';
import { type Arm, armScenario } from './arms.ts';
import { armsTable } from './arms-table.ts';

export interface ArmsOptions {
  /** Where every arm's report folder, `arms.json` and `arms.md` go. */
  dir: string;
  /** Each arm runs once per condition, calm first (default: calm, then under its own chaos). */
  conditions?: readonly Condition[];
  signal?: AbortSignal;
  /** Before each arm starts, `index` of `total`. */
  onArm?: (arm: Arm, condition: Condition, index: number, total: number) => void;
  onProgress?: RunScenarioOptions['onProgress'];
}

export interface ArmsResult {
  scenario: string;
  seed: number;
  arms: ArmFigures[];
  /** Stopped before every arm ran (the figures are those of the arms that did). */
  partial: boolean;
  wallSeconds: number;
  table: string;
}

export async function runArms(scenario: Scenario, arms: readonly Arm[], options: ArmsOptions): Promise<ArmsResult> {
  const startedAt = Date.now();
  const figures: ArmFigures[] = [];
  const runs = (options.conditions ?? CONDITIONS).flatMap((condition) => arms.map((arm) => ({ arm, condition })));
  let partial = false;
  for (const [index, { arm, condition }] of runs.entries()) {
    if (options.signal?.aborted) {
      partial = true;
      break;
    }
    options.onArm?.(arm, condition, index, runs.length);
    const summary: Summary = await runScenario(armScenario(scenario, arm, condition), {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    await writeReport(summary, { dir: join(options.dir, `${arm.binary}-${condition}`) });
    figures.push(armFigures(summary, { answer: arm.answer, binary: arm.binary, chaos: chaosLabel(arm.binary, condition) }));
    if (summary.partial) {
      partial = true;
      break;
    }
  }
  const result: ArmsResult = {
    scenario: scenario.name,
    seed: scenario.seed,
    arms: figures,
    partial,
    wallSeconds: Math.round((Date.now() - startedAt) / 1000),
    table: armsTable(figures),
  };
  await atomicWriteFile(join(options.dir, 'arms.json'), `${JSON.stringify(result, null, 2)}\n`);
  await atomicWriteFile(join(options.dir, 'arms.md'), armsMarkdown(result));
  return result;
}

function armsMarkdown(result: ArmsResult): string {
  const heading = `# ${result.scenario}, seed ${result.seed}: the answers to the limits side by side${result.partial ? ' (stopped early)' : ''}`;
  return `${heading}\n\n${result.table}\n\nWall time of all arms: ${result.wallSeconds} s.\n`;
}
