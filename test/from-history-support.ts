/** What the from-history tests share: running a scenario once, the command, the comparison of breaks. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { expect } from 'vitest';
import { buildRunView, type KernelMapping, loadHistory, profileRun, type RunBreak } from '../src/checks/index.ts';
import { resolveScenario, runScenario } from '../src/index.ts';
import type { Scenario } from '../src/scenario/index.ts';
import { longrun } from './longrun-cli.ts';

/** Runs the scenario; its one run's histories as JSON and where the run broke (read through `mapping`, a foreign kernel's). */
export async function runOnce(
  scenario: Scenario,
  options: { file?: string; mapping?: KernelMapping } = {},
): Promise<{ json: string; broke: RunBreak | null; met: boolean[]; requests: number[] }> {
  const histories: temporal.api.history.v1.IHistory[] = [];
  const summary = await runScenario(scenario, {
    ...(options.file ? { scenarioFile: options.file } : {}),
    onHistories: async (_record, h) => void histories.push(...(await h())),
  });
  expect(histories).toHaveLength(1);
  const json = historyToJSON(histories[0] as temporal.api.history.v1.History);
  const run = buildRunView([loadHistory(json, { source: scenario.name, mapping: options.mapping })]);
  const requests = (run.executions[0]?.turns ?? []).map((t) =>
    t.calls[0]?.input.kind === 'call-model' ? t.calls[0].input.request.bytes : 0,
  );
  return { json, broke: profileRun(run).break, met: summary.expectations.map((e) => e.met), requests };
}

/** `longrun scenario from-history`, its scenario's text and file. */
export async function fromHistory(dir: string, file: string, out: string, ...args: string[]): Promise<{ text: string; out: string }> {
  const made = await longrun(['scenario', 'from-history', file, '--out', join(dir, out), ...args]);
  expect(made.code, made.stderr).toBe(0);
  return { text: readFileSync(join(dir, out), 'utf8'), out: join(dir, out) };
}

export function expectSameBreak(source: RunBreak | null, replayed: RunBreak | null, label: string): void {
  const turns = `${label}: the source broke at turn ${source?.turn}, the replay at ${replayed?.turn}`;
  console.log(turns);
  expect(replayed?.incident, turns).toBe(source?.incident);
  expect(Math.abs((replayed?.turn ?? 0) - (source?.turn ?? 0)), turns).toBeLessThanOrEqual(1);
}

/** A built-in scenario's run on one binary of its foreign target, recorded as a file in `dir`. */
export async function recordForeign(dir: string, name: string, binary: string, mapping: KernelMapping) {
  const { scenario, file } = resolveScenario(name);
  const external = (scenario.target as Extract<Scenario['target'], { external: unknown }>).external;
  const source = await runOnce(
    {
      ...scenario,
      target: { external: { ...external, binaries: { [binary]: external.binaries[binary] as (typeof external.binaries)[string] } } },
      runs: { ...scenario.runs, count: 1, concurrency: 1 },
      expect: scenario.expect.filter((e) => e.on === binary && 'reproduces' in e),
    },
    { file, mapping },
  );
  const sourceFile = join(dir, `${name}.json`);
  writeFileSync(sourceFile, source.json);
  return { ...source, file: sourceFile };
}
