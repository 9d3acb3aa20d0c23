import type { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunView, DEFAULT_KERNEL_MAPPING, loadHistory, type RunView } from '../checks/index.ts';
import { CARD_SECTIONS } from '../contract/limits.ts';
import { type Environment, startEnvironment } from '../environment/index.ts';
import type { BinaryId } from '../kernel/index.ts';
import { MUTANT_SERVER, MUTANTS } from '../mutants/catalogue.ts';
import type { Summary } from '../result/index.ts';
import { runScenario } from '../runner/run-scenario.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { DETECTION_SCENARIOS } from './detection-suite.ts';

const scenario = (name: string) => DETECTION_SCENARIOS.find((s) => s.name === name) as Scenario;
const on = (s: Scenario, binary: BinaryId): Scenario => ({ ...s, target: { binaries: [binary] }, expect: [{ on: binary, hold: 'all' }] });

/** Runs a suite scenario and reads its v1 run back from its histories. */
async function runAndView(environment: Environment, name: string): Promise<{ summary: Summary; view: RunView }> {
  const histories: temporal.api.history.v1.IHistory[] = [];
  const summary = await runScenario(scenario(name), {
    environment,
    onHistories: async (record, chain) => {
      if (record.binary === 'v1') histories.push(...(await chain()));
    },
  });
  const view = buildRunView(histories.map((h, i) => loadHistory(h, { source: `execution ${i + 1}`, mapping: DEFAULT_KERNEL_MAPPING })));
  return { summary, view };
}

/** The suite's card scenarios: untidy cards; a failed compaction, a card over the limit, then one exactly at it. */
describe('detection suite: the card scenarios, and the controls of its new checks', () => {
  let env: Environment;
  beforeAll(async () => {
    env = await startEnvironment({ dynamicConfig: MUTANT_SERVER });
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('holds every invariant on v1: the first compaction fails, the second takes the card at the limit', { timeout: 120_000 }, async () => {
    const summary = await runScenario(scenario('detect-compaction-faults'), { environment: env });
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    const [run] = summary.runs;
    expect(run?.compactions.map((c) => c.ok).slice(0, 2)).toEqual([false, true]);
  });

  it('detect-compaction holds on v1: its first card, after a preamble, is rejected twice, then taken with headings ending in spaces', {
    timeout: 180_000,
  }, async () => {
    const { summary, view } = await runAndView(env, 'detect-compaction');
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    const [first] = view.executions.flatMap((e) => e.activities).filter((a) => a.type === DEFAULT_KERNEL_MAPPING.activities.compactContext);
    expect(first?.attempt).toBe(3);
    const card = first?.result?.kind === 'compact-context' ? first.result.card : '';
    expect(card.split('\n').filter((line) => line.startsWith('## '))).toEqual(CARD_SECTIONS.map((s) => `${s}  `));
  });

  it('fails compaction.card alone on card-limit-exclusive, which rejects the card at the limit', { timeout: 120_000 }, async () => {
    const summary = await runScenario(on(scenario('detect-compaction-faults'), 'card-limit-exclusive'), { environment: env });
    const failed = new Set(summary.runs.flatMap((r) => r.invariants.filter((i) => i.status === 'fail').map((i) => i.id)));
    expect([...failed]).toEqual(['compaction.card']);
  });

  it('fails compaction.card alone on card-in-units, which measures the card in UTF-16 units: its 12,000-byte card is mostly Chinese', {
    timeout: 120_000,
  }, async () => {
    const summary = await runScenario(on(scenario('detect-compaction-faults'), 'card-in-units'), { environment: env });
    const failed = new Set(summary.runs.flatMap((r) => r.invariants.filter((i) => i.status === 'fail').map((i) => i.id)));
    expect([...failed]).toEqual(['compaction.card']);
  });

  it('holds every invariant on v1 in the guard scenarios: both kinds elided past the limit, and an honest give-up', {
    timeout: 180_000,
  }, async () => {
    const guard = await runScenario(scenario('detect-guard'), { environment: env });
    expect(guard.expectations.filter((e) => !e.met)).toEqual([]);
    expect(guard.runs.map((r) => [r.outcome, r.turns.length, r.executions.length])).toEqual([['completed', 30, 2]]);
    const givesUp = await runScenario(scenario('detect-guard-gives-up'), { environment: env });
    expect(givesUp.expectations.filter((e) => !e.met)).toEqual([]);
    const [run] = givesUp.runs;
    expect([run?.outcome, run?.turns.length]).toEqual(['failed', 3]);
    expect(run?.invariants.find((i) => i.id === 'run.liveness')?.evidence[0]).toMatch(
      /failed with PayloadGuard, a reason the contract names$/,
    );
  });

  it("holds every invariant on v1 when a page's text sits beside its screenshot: the guard elides the text and keeps the image", {
    timeout: 120_000,
  }, async () => {
    const { summary, view } = await runAndView(env, 'detect-page-texts');
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    const last = view.executions
      .flatMap((e) => e.activities)
      .filter((a) => a.input.kind === 'call-model')
      .at(-1);
    const tools = last?.input.kind === 'call-model' ? last.input.request.messages.filter((m) => m.role === 'tool') : [];
    const shapes = tools.map((m) => (m.parts ?? []).map((p) => (p.text?.startsWith('[elided: tool output, ') ? 'placeholder' : p.kind)));
    // Every tool message holds a page's text and its image; the oldest have their text elided, never the image.
    expect(shapes.length).toBe(15);
    expect(shapes.filter((parts) => parts[0] === 'placeholder').length).toBeGreaterThan(5);
    expect(shapes.every((parts) => parts.length === 2 && parts[1] === 'screenshot')).toBe(true);
    expect(shapes.at(-1)).toEqual(['text', 'screenshot']);
  });

  it('holds every invariant on v1 when texts pass the blob limit: each compaction input elides them', { timeout: 120_000 }, async () => {
    const summary = await runScenario(scenario('detect-compaction-input'), { environment: env });
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    const [run] = summary.runs;
    // The request each compaction started from was past the 256 KiB blob limit; the compaction input under it (payload.ceiling holds).
    expect(run?.compactions.map((c) => [c.turn, c.ok, (c.bytesBefore ?? 0) > MUTANT_SERVER['limit.blobSize.error']])).toEqual([
      [4, true, true],
      [7, true, true],
    ]);
  });

  it('holds every invariant on v1 when a tool fails for good: its call is still answered, and the run goes on', {
    timeout: 120_000,
  }, async () => {
    const { summary, view } = await runAndView(env, 'detect-tool-failure');
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    expect(summary.runs.map((r) => [r.outcome, r.turns.length])).toEqual([['completed', 4]]);
    const [execution] = view.executions;
    // Turn 2's tool calls failed all 5 attempts; turn 3's request still answers each of them.
    const failed = (execution?.activities ?? []).filter((a) => a.type === 'run_tool' && a.outcome === 'failed');
    expect(failed.map((a) => [a.input.kind === 'run-tool' && a.input.turn, a.attempt])).toEqual(failed.map(() => [2, 5]));
    expect(failed.length).toBeGreaterThan(0);
    const answered = execution?.turns.find((t) => t.number === 3)?.calls[0]?.input;
    const toolCallIds = answered?.kind === 'call-model' ? answered.request.messages.map((m) => m.toolCallId) : [];
    for (const activity of failed) expect(toolCallIds).toContain(activity.input.kind === 'run-tool' && activity.input.toolCallId);
  });

  // The controls of the checks the suite's survivors called for, each on its catalogue scenario.
  it.each([
    ['dropped-counts-kept', 'rebuild.contract', /context\.compacted says kept \d+, dropped \d+; the rebuild kept/],
    [
      'compaction-no-settings',
      'compaction.failure-continues',
      /compact_context failed for a reason the contract does not name \(TypeError\)/,
    ],
    ['guard-target-margin', 'run.liveness', /failed with PayloadGuard .* but its dialog of [\d,]+ bytes is [\d,]+ with every tool output/],
    ['limits-whole', 'run.liveness', /failed with InvalidRunInput, but its input is a RunInput every kernel must take/],
    [
      'compaction-keeps-texts',
      'compaction.failure-continues',
      /context\.compaction_failed \(turn 4\), then no call_model: the run ended failed/,
    ],
  ] as const)('the catalogue catches %s by %s', { timeout: 180_000 }, async (binary, invariant, evidence) => {
    const control = MUTANTS.find((m) => m.binary === binary);
    const summary = await runScenario(control?.scenario as Scenario, { environment: env });
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    const [result] = summary.runs.flatMap((r) => r.invariants.filter((i) => i.id === invariant));
    expect(result?.evidence).toContainEqual(expect.stringMatching(evidence));
  });
});
