/** What the from-history tests share: running a scenario once, the command, the comparison of breaks. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { expect } from 'vitest';
import { buildRunView, extractIdentifiers, type KernelMapping, loadHistory, profileRun, type RunBreak } from '../src/checks/index.ts';
import { TOOL_NAMES } from '../src/contract/messages.ts';
import { resolveScenario, runScenario } from '../src/index.ts';
import type { Scenario } from '../src/scenario/index.ts';
import { longrun } from './longrun-cli.ts';

/** A recorded history with failures: tmprl1103's run on v0, a 429 and a 500 retried, its workflow worker killed (record.ts beside it). */
export const FIXTURE = 'test/from-history-fixture/tmprl1103-faults-execution-1.json.gz';

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

/** The strings of a decoded value, those of a JSON text inside it (tool call arguments) too. */
function stringsIn(value: unknown, into: string[]): void {
  if (typeof value === 'string') {
    into.push(value);
    if (value.startsWith('{')) {
      try {
        stringsIn(JSON.parse(value), into);
      } catch {}
    }
  } else if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) stringsIn(inner, into);
  }
}

/** Every string a payload of the history carries (its json/plain payloads, decoded and walked to their leaves). */
export function payloadStrings(json: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const encoding = (record.metadata as Record<string, string> | undefined)?.encoding;
    if (typeof record.data === 'string' && encoding && Buffer.from(encoding, 'base64').toString() === 'json/plain') {
      stringsIn(JSON.parse(Buffer.from(record.data, 'base64').toString('utf8')), found);
      return;
    }
    for (const inner of Object.values(record)) visit(inner);
  };
  visit(JSON.parse(json));
  return found;
}

/** No string of the source's payloads in `text`: prompts, outputs, texts, ids, arguments (tool names aside: the shape names its tools). */
export function expectNoSourceStrings(json: string, text: string): void {
  const strings = payloadStrings(json);
  expect(strings.length).toBeGreaterThan(100);
  const needles = new Set<string>();
  for (const s of strings) {
    if ((TOOL_NAMES as readonly string[]).includes(s)) continue;
    if (s.length >= 8) needles.add(s);
    for (const line of s.split('\n')) if (line.trim().length >= 16) needles.add(line.trim());
    for (const id of extractIdentifiers(s)) if (id.length >= 6) needles.add(id);
  }
  expect(needles.size).toBeGreaterThan(100);
  expect([...needles].filter((needle) => text.includes(needle))).toEqual([]);
}
