/**
 * The built-in scenarios load, say what they are, and their numbers do what their comments
 * claim: the planned runs (mocks' planRun, before any kernel acts on them) cross the scaled
 * limits that each incident needs, and stay clear of those they must not reach.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { planContextBytes, planRun, type RunPlan, resolveShape, runMessages, toolContentWireBytes } from '../../mocks/index.ts';
import { LONGRUN_SETTINGS } from '../contract/kernel-api.ts';
import { BYTES_PER_TOKEN } from '../contract/limits.ts';
import type { Message } from '../contract/messages.ts';
import { bigItemThresholdBytes, buildAgentRequest, guardTargetBytes, jsonBytes, rebuildMessages, resolveLimits } from '../kernel/index.ts';
import { importPatched } from '../kernel/testing/patched-module.ts';
import { loadScenarioFile } from './load-scenario.ts';
import { listScenarios, resolveScenario, SCENARIOS_DIR, scenarioFiles, scenarioName } from './registry.ts';
import type { Scenario } from './scenario-schema.ts';

const BUILT_IN_NAMES = [
  'bounds-big-groups',
  'bounds-long-texts',
  'bounds-small-groups',
  'compaction-failure',
  'cross-version-replay',
  'history-count',
  'history-size',
  'nightly-soak',
  'screenshot-storm',
  'seed-distribution',
  'smoke',
  'tmprl1103',
];

describe('the built-in scenarios', () => {
  it('include the nine of the design and the three of the bounds', () => {
    expect(scenarioFiles().map(scenarioName)).toEqual(expect.arrayContaining(BUILT_IN_NAMES));
  });

  it.each(BUILT_IN_NAMES)('%s loads, is named after its file and starts with the schema comment and a header', (name) => {
    const file = join(SCENARIOS_DIR, `${name}.yaml`);
    const scenario = loadScenarioFile(file);
    expect(scenario.name).toBe(scenarioName(file));
    expect(scenario.description.length).toBeGreaterThan(20);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe('# yaml-language-server: $schema=./schema/scenario.schema.json');
    const header = lines
      .slice(
        1,
        lines.findIndex((line) => line.startsWith('name:')),
      )
      .join('\n');
    expect(header).toContain(`# ${scenario.name}: `);
    expect(header).toMatch(/# Takes: /);
  });

  it('are listed with their descriptions', () => {
    const listed = listScenarios().filter((entry) => BUILT_IN_NAMES.includes(entry.name));
    expect(listed.map((entry) => entry.name)).toEqual(BUILT_IN_NAMES);
    for (const entry of listed) {
      expect(entry.error).toBeUndefined();
      expect(entry.description).toBe((parse(readFileSync(entry.file, 'utf8')) as { description: string }).description);
    }
  });
});

/** The request of every turn of an uncompacted run (what v0 sends), in bytes. */
function requestBytesByTurn(plan: RunPlan): number[] {
  const envelope = jsonBytes(buildAgentRequest({ runId: plan.runId, turn: plan.turns.length, model: 'agent', messages: [] })) - 2;
  return plan.turns.map((_, i) => envelope + planContextBytes({ ...plan, turns: plan.turns.slice(0, i) }));
}

/** As the runner names runs: the trailing number is the run's index, which stratifies sizes. */
const runIdOf = (scenario: Scenario, index: number) => `${scenario.name}-run-${String(index).padStart(4, '0')}`;

/** The runs the scenario plans (the first few), with their uncompacted requests. */
function plannedRuns(scenario: Scenario, runs = 3) {
  return Array.from({ length: runs }, (_, index) => {
    const plan = planRun({ seed: scenario.seed, runId: runIdOf(scenario, index), shape: scenario.shape, index });
    return { plan, requests: requestBytesByTurn(plan) };
  });
}

/** 1-based turn at which `values` first passes `limit`, or null. */
function firstTurnOver(values: readonly number[], limit: number): number | null {
  const index = values.findIndex((v) => v > limit);
  return index < 0 ? null : index + 1;
}

function cumulative(values: readonly number[]): number[] {
  let sum = 0;
  return values.map((v) => (sum += v));
}

function largestToolOutput(plan: RunPlan): number {
  return Math.max(...plan.turns.flatMap((t) => t.calls.map((c) => toolContentWireBytes(c.tool, c.args) - 2)));
}

const dynamicConfig = (scenario: Scenario, key: string) => scenario.server.dynamicConfig[key];

describe('the incident scenarios cross the limits they claim to', () => {
  it('tmprl1103: requests pass the blob limit on v0 with no item big enough for its guard, and the trigger well before', () => {
    const { scenario } = resolveScenario('tmprl1103');
    const limits = resolveLimits(scenario.limits);
    expect(dynamicConfig(scenario, 'limit.blobSize.error')).toBe(limits.blobLimitBytes);
    for (const { plan, requests } of plannedRuns(scenario)) {
      const overBlob = firstTurnOver(requests, limits.blobLimitBytes);
      const overTrigger = firstTurnOver(requests, limits.compactionTriggerBytes);
      expect(overBlob).not.toBeNull();
      expect(overBlob).toBeLessThan(plan.turns.length);
      expect(overTrigger).toBeLessThan((overBlob as number) - 5);
      expect(largestToolOutput(plan)).toBeLessThan(bigItemThresholdBytes(limits));
    }
  });

  it('history-size: the requests alone pass limit.historySize.error on v0; v1 continues as new well below it', () => {
    const { scenario } = resolveScenario('history-size');
    const limits = resolveLimits(scenario.limits);
    const historyLimit = dynamicConfig(scenario, 'limit.historySize.error') as number;
    const warn = dynamicConfig(scenario, 'limit.historySize.warn') as number;
    expect(limits.continueAsNewBytes).toBeLessThan(warn);
    expect(warn).toBeLessThan(historyLimit);
    for (const { plan, requests } of plannedRuns(scenario)) {
      expect(firstTurnOver(cumulative(requests), historyLimit)).toBeLessThan(plan.turns.length);
      // An execution holds its carried dialog, its budget and the request that passes it: under the limit with room.
      const largest = Math.max(...requests);
      expect(2 * largest + limits.continueAsNewBytes).toBeLessThan(historyLimit * 0.75);
      expect(firstTurnOver(requests, limits.compactionTriggerBytes)).toBeNull();
      expect(largest).toBeLessThan(guardTargetBytes(limits));
    }
  });

  it('history-count: the events alone pass limit.historyCount.error on v1; its requests stay far from every byte limit', () => {
    const { scenario } = resolveScenario('history-count');
    const limits = resolveLimits(scenario.limits);
    const countLimit = dynamicConfig(scenario, 'limit.historyCount.error') as number;
    const suggestAt = dynamicConfig(scenario, 'limit.historyCount.suggestContinueAsNew') as number;
    const sizeSuggestAt = dynamicConfig(scenario, 'limit.historySize.suggestContinueAsNew') as number;
    for (const { plan, requests } of plannedRuns(scenario, scenario.runs.count)) {
      const calls = plan.turns.map((t) => t.calls.length);
      // Three events an activity (call_model, every run_tool, the turn's journal.append) and three a
      // workflow task: at least two a turn (after the answer, after the last tool), at most one per completion and one.
      const fewest = cumulative(calls.map((n) => 3 * (n + 2) + 3 * 2));
      const most = Math.max(...calls.map((n) => 3 * (n + 2) + 3 * (n + 3)));
      expect(firstTurnOver(fewest, countLimit)).toBeLessThan(plan.turns.length);
      expect(suggestAt + 2 * most).toBeLessThan(countLimit);
      const sent = cumulative(requests).at(-1) as number;
      expect(sent).toBeLessThan(limits.continueAsNewBytes / 4);
      expect(sent).toBeLessThan(sizeSuggestAt / 2);
      expect(Math.max(...requests)).toBeLessThan(limits.compactionTriggerBytes);
    }
  });

  it('compaction-failure: requests pass the trigger early enough for many failed compactions', () => {
    const { scenario } = resolveScenario('compaction-failure');
    const limits = resolveLimits(scenario.limits);
    expect(scenario.faults).toEqual({ compaction: [{ fault: { kind: 'http-500' } }] });
    for (const { plan, requests } of plannedRuns(scenario)) {
      expect(plan.turns.length - (firstTurnOver(requests, limits.compactionTriggerBytes) as number)).toBeGreaterThanOrEqual(10);
    }
  });

  it('cross-version-replay: v0 crosses the trigger and ends under the guard target', () => {
    const { scenario } = resolveScenario('cross-version-replay');
    const limits = resolveLimits(scenario.limits);
    for (const { plan, requests } of plannedRuns(scenario)) {
      expect(firstTurnOver(requests, limits.compactionTriggerBytes)).toBeLessThan(plan.turns.length - 3);
      expect(Math.max(...requests)).toBeLessThan(guardTargetBytes(limits));
    }
  });

  it('screenshot-storm: every screenshot is a big item, and the requests pass the trigger and the guard target', () => {
    const { scenario } = resolveScenario('screenshot-storm');
    const limits = resolveLimits(scenario.limits);
    for (const { plan, requests } of plannedRuns(scenario)) {
      const screenshots = plan.turns.flatMap((t) => t.calls.filter((c) => c.tool === 'screenshot'));
      expect(screenshots).toHaveLength(plan.turns.length - 1);
      for (const shot of screenshots) expect(toolContentWireBytes('screenshot', shot.args)).toBeGreaterThan(bigItemThresholdBytes(limits));
      expect(firstTurnOver(requests, limits.compactionTriggerBytes)).toBeLessThanOrEqual(6);
      expect(firstTurnOver(requests, guardTargetBytes(limits))).toBeLessThanOrEqual(10);
    }
  });

  it('smoke: each run passes both the ContinueAsNew budget and the trigger', () => {
    const { scenario } = resolveScenario('smoke');
    const limits = resolveLimits(scenario.limits);
    for (const { plan, requests } of plannedRuns(scenario, scenario.runs.count)) {
      expect(firstTurnOver(cumulative(requests), limits.continueAsNewBytes)).toBeLessThan(plan.turns.length - 2);
      expect(firstTurnOver(requests, limits.compactionTriggerBytes)).toBeLessThan(plan.turns.length - 2);
    }
  });

  it('seed-distribution: production-sized runs shrunk by the scale, the largest past the scaled trigger', () => {
    const { scenario } = resolveScenario('seed-distribution');
    const limits = resolveLimits(scenario.limits);
    const { scale } = resolveShape(scenario.shape);
    // Index 0-999 cover every stratum once: the largest planned run is the curve's top.
    const sizes = Array.from({ length: scenario.runs.count }, (_, index) =>
      planRun({ seed: scenario.seed, runId: runIdOf(scenario, index), shape: scenario.shape, index }),
    ).map((plan) => plan.targetTokens);
    expect(Math.max(...sizes)).toBeGreaterThan(680_000);
    const top = Math.max(...sizes) * BYTES_PER_TOKEN * scale;
    expect(top).toBeGreaterThan(limits.compactionTriggerBytes);
    expect(dynamicConfig(scenario, 'limit.blobSize.error')).toBe(limits.blobLimitBytes);
  });
});

/**
 * Exactly what v1 sends while nothing is compacted: the bytes of every turn's request (index
 * 0 is turn 1), and the bytes of the last `count` turn groups before a turn, serialized as the
 * rebuild's tail would be. The bounds scenarios' limits are chosen from these.
 */
function exactRun(scenario: Scenario) {
  const runId = runIdOf(scenario, 0);
  const plan = planRun({ seed: scenario.seed, runId, shape: scenario.shape, index: 0 });
  const messages = runMessages(plan);
  const requests: number[] = [];
  const groups: Message[][] = [];
  const ends: number[] = [];
  let end = 2;
  for (const turn of plan.turns) {
    const sent = buildAgentRequest({ runId, turn: turn.turn, model: LONGRUN_SETTINGS.agent.model, messages: messages.slice(0, end) });
    requests.push(jsonBytes(sent));
    ends.push(end);
    groups.push(messages.slice(end, end + 1 + turn.calls.length));
    end += 1 + turn.calls.length;
  }
  const tailBytes = (turn: number, count: number) => jsonBytes(groups.slice(turn - 1 - count, turn - 1).flat());
  /** The dialog of an uncompacted run before `turn`: what its first compaction rebuilds from. */
  const historyBefore = (turn: number) => messages.slice(0, ends[turn - 1]);
  return { plan, requests, tailBytes, historyBefore };
}

describe('the bounds scenarios put their limits on exact bytes of the plan', () => {
  it('bounds-small-groups: the trigger is the request of turn 24, the budget the first six requests; 9 groups fit in the tail', () => {
    const { scenario } = resolveScenario('bounds-small-groups');
    const limits = resolveLimits(scenario.limits);
    const { requests, tailBytes } = exactRun(scenario);
    expect(requests[23]).toBe(limits.compactionTriggerBytes);
    expect(firstTurnOver(requests, limits.compactionTriggerBytes)).toBe(25);
    expect(cumulative(requests)[5]).toBe(limits.continueAsNewBytes);
    // The upper group bound binds at the first compaction: a ninth group would still fit.
    expect(tailBytes(25, 9)).toBeLessThanOrEqual(limits.tailMaxBytes);
    // The card's limit under a larger tail: the oversized card falls between the two.
    expect(limits.tailMaxBytes).toBeGreaterThan(limits.cardMaxBytes);
    const [rule] = scenario.faults.compaction ?? [];
    const card = rule?.fault.kind === 'oversized-card' ? rule.fault : undefined;
    expect(card?.bytes).toBeGreaterThan(limits.cardMaxBytes);
    expect(card?.bytes).toBeLessThanOrEqual(limits.tailMaxBytes);
    expect(rule?.when).toEqual({ calls: [1] });
  });

  it('bounds-big-groups: 4 groups pass the tail max by one byte at the first compaction; a screenshot group alone passes it', () => {
    const { scenario } = resolveScenario('bounds-big-groups');
    const limits = resolveLimits(scenario.limits);
    const { plan, requests, tailBytes } = exactRun(scenario);
    expect(firstTurnOver(requests, limits.compactionTriggerBytes)).toBe(15);
    expect(tailBytes(15, 3)).toBeLessThanOrEqual(limits.tailMaxBytes);
    expect(tailBytes(15, 4)).toBe(limits.tailMaxBytes + 1);
    expect(plan.turns[19]?.calls[0]?.tool).toBe('screenshot');
    expect(tailBytes(21, 1)).toBeGreaterThan(limits.tailMaxBytes);
    // The payload guard leaves the screenshots alone: only the rebuild elides inside the tail.
    expect(largestToolOutput(plan)).toBeLessThan(bigItemThresholdBytes(limits));
  });

  it('bounds-long-texts: two groups pass the tail max on their texts alone, at the first compaction and as long as the run lasts', async () => {
    const { scenario } = resolveScenario('bounds-long-texts');
    const limits = resolveLimits(scenario.limits);
    const { plan, requests, tailBytes, historyBefore } = exactRun(scenario);
    expect(firstTurnOver(requests, limits.compactionTriggerBytes)).toBe(11);
    // tail-keeps-texts's rebuild elides screenshots and tool outputs only.
    const keepsTexts = (await importPatched<typeof import('../kernel/context/rebuild.ts')>('tail-keeps-texts', 'context/rebuild.ts'))
      .rebuildMessages;
    // Every two groups: over the cap, still over it with their tool outputs elided, within it with their texts elided too.
    for (let turn = 11; turn <= plan.turns.length; turn++) {
      expect(tailBytes(turn, 2)).toBeGreaterThan(limits.tailMaxBytes);
      expect(keepsTexts(historyBefore(turn), 'card', limits).tailBytes).toBeGreaterThan(limits.tailMaxBytes);
      const spec = rebuildMessages(historyBefore(turn), 'card', limits);
      expect(spec.kept).toBe(2);
      expect(spec.tailBytes).toBeLessThanOrEqual(limits.tailMaxBytes);
      expect(spec.elided.map((item) => item.kind)).toContain('assistant_text');
    }
    expect(plan.turns.slice(0, -1).every((turn) => Buffer.byteLength(turn.message.content as string) === 4_000)).toBe(true);
    expect(largestToolOutput(plan)).toBeLessThan(bigItemThresholdBytes(limits));
  });
});
