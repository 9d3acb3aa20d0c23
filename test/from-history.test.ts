/**
 * `longrun scenario from-history` on a real break: a history of the built-in tmprl1103 run on
 * v0, recorded here, becomes a scenario that, run on v0, breaks on the blob limit at the same
 * turn (within one), and carries no string of the source's payloads.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRunView, extractIdentifiers, loadHistory, profileRun, type RunBreak } from '../src/checks/index.ts';
import { TOOL_NAMES } from '../src/contract/messages.ts';
import { resolveScenario, runScenario } from '../src/index.ts';
import type { Scenario } from '../src/scenario/index.ts';
import { loadScenarioFile } from '../src/scenario/index.ts';
import { longrun } from './longrun-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'longrun-from-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the scenario; its one run's histories as JSON and where the run broke. */
async function runOnce(scenario: Scenario): Promise<{ json: string; broke: RunBreak | null; met: boolean[]; requests: number[] }> {
  const histories: temporal.api.history.v1.IHistory[] = [];
  const summary = await runScenario(scenario, { onHistories: async (_record, h) => void histories.push(...(await h())) });
  expect(histories).toHaveLength(1);
  const json = historyToJSON(histories[0] as temporal.api.history.v1.History);
  const run = buildRunView([loadHistory(json, { source: scenario.name })]);
  const requests = (run.executions[0]?.turns ?? []).map((t) =>
    t.calls[0]?.input.kind === 'call-model' ? t.calls[0].input.request.bytes : 0,
  );
  return { json, broke: profileRun(run).break, met: summary.expectations.map((e) => e.met), requests };
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
function payloadStrings(json: string): string[] {
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

describe('longrun scenario from-history', () => {
  it("writes a scenario from a real tmprl1103 history on v0 that breaks on the blob limit at the same turn, and holds none of the source's strings", async () => {
    const { scenario } = resolveScenario('tmprl1103');
    const v0Only: Scenario = {
      ...scenario,
      target: { binaries: ['v0'] },
      runs: { ...scenario.runs, count: 1, concurrency: 1 },
      expect: scenario.expect.filter((e) => e.on === 'v0' && 'reproduces' in e),
    };
    const source = await runOnce(v0Only);
    expect(source.broke?.incident).toBe('tmprl1103');
    const sourceFile = join(dir, 'incident.json');
    writeFileSync(sourceFile, source.json);

    const out = join(dir, 'replayed.yaml');
    const made = await longrun(['scenario', 'from-history', sourceFile, '--out', out]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain(`tmprl1103 at turn ${source.broke?.turn}`);
    const text = readFileSync(out, 'utf8');
    const sha = createHash('sha256').update(readFileSync(sourceFile)).digest('hex');
    expect(text).toContain(`# From the history ${sourceFile}`);
    expect(text).toContain(sha);
    expect(text).toMatch(/^ {2}binaries: \[v0\]$/m);
    expect(text).toMatch(/reproduces: tmprl1103/);

    // No string of the source's payloads: prompts, outputs, texts, ids, arguments (tool names aside: the shape names its tools).
    const strings = payloadStrings(source.json);
    expect(strings.length).toBeGreaterThan(100);
    const needles = new Set<string>();
    for (const s of strings) {
      if ((TOOL_NAMES as readonly string[]).includes(s)) continue;
      if (s.length >= 8) needles.add(s);
      for (const line of s.split('\n')) if (line.trim().length >= 16) needles.add(line.trim());
      for (const id of extractIdentifiers(s)) if (id.length >= 6) needles.add(id);
    }
    expect(needles.size).toBeGreaterThan(100);
    const found = [...needles].filter((needle) => text.includes(needle));
    expect(found).toEqual([]);

    const replayed = await runOnce(loadScenarioFile(out));
    expect(replayed.met).toEqual([true]);
    expect(replayed.broke?.incident).toBe('tmprl1103');
    const turns = `source broke at turn ${source.broke?.turn}, replayed at ${replayed.broke?.turn}`;
    console.log(turns);
    expect(Math.abs((replayed.broke?.turn ?? 0) - (source.broke?.turn ?? 0)), turns).toBeLessThanOrEqual(1);
    // Turn by turn, the replay's requests weigh what the source's did, within a sixth of a turn's growth (outputs sized by their escaped bytes).
    for (const [i, bytes] of replayed.requests.entries()) {
      const was = source.requests[i] as number;
      expect(Math.abs(bytes - was), `turn ${i + 1}: ${bytes} bytes, the source's ${was}`).toBeLessThan(2048);
    }
  });
});
