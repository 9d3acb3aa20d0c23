/** `longrun mutants`: every deliberately broken kernel is caught by the invariants named for it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Environment, runScenario, type Scenario, startEnvironment } from '../src/index.ts';
import { resolveLimits } from '../src/kernel/index.ts';
import { BOUND_MUTANTS, MUTANT_SERVER, MUTANTS } from '../src/mutants/catalogue.ts';
import { longrun } from './longrun-cli.ts';

describe('longrun mutants', () => {
  // 34 controls one after another, each patched control's bundle built cold the first time: 582 s
  // measured with 30 at a load of 15-20 on 2 cores, far past vitest's 120 s default.
  it('catches every broken control: score 100%', { timeout: 1_200_000 }, async () => {
    const result = await longrun(['mutants', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { score: string; mutants: { binary: string; caught: boolean }[] };
    expect(report.mutants.map((m) => m.binary).sort()).toEqual(MUTANTS.map((m) => m.binary).sort());
    expect(report.mutants.filter((m) => !m.caught)).toEqual([]);
    expect(report.score).toBe(`${MUTANTS.length}/${MUTANTS.length} (100%)`);
  });
});

/**
 * The bounds' controls, each on its built-in scenario, in this process on one shared server:
 * v1 holds every invariant there while each bound bites, and each control fails exactly the
 * invariant named for it (one bug, one verdict). `-t bounds` runs these alone.
 */
describe('bounds: every bound bites in a fast scenario', () => {
  let env: Environment;
  beforeAll(async () => {
    env = await startEnvironment({ dynamicConfig: MUTANT_SERVER });
  });
  afterAll(async () => {
    await env?.teardown();
  });

  /** The scenario the catalogue plays, on v1 with every invariant expected to hold. */
  const onV1 = (name: string): Scenario => {
    const scenario = BOUND_MUTANTS.find((m) => m.scenario.name === name)?.scenario as Scenario;
    return { ...scenario, target: { binaries: ['v1'] }, expect: [{ on: 'v1', hold: 'all' }] };
  };
  const runOnV1 = async (name: string) => {
    const summary = await runScenario(onV1(name), { environment: env });
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    const [run] = summary.runs;
    expect(run?.outcome).toBe('completed');
    return run as NonNullable<typeof run>;
  };

  it('bounds-small-groups on v1: 8 groups kept of more that fit, the trigger and the budget met at their exact byte, many ContinueAsNew', async () => {
    const run = await runOnV1('bounds-small-groups');
    const limits = resolveLimits(onV1('bounds-small-groups').limits);
    const request = (turn: number) => run.turns.find((t) => t.turn === turn)?.requestBytes;
    expect(request(24)).toBe(limits.compactionTriggerBytes);
    expect(run.compactions.map((c) => [c.turn, c.ok, c.kept])).toEqual([
      [25, true, 8],
      [34, true, 8],
    ]);
    const firstExecution = run.turns.filter((t) => t.execution === 1);
    expect(firstExecution.slice(0, 6).reduce((sum, t) => sum + t.requestBytes, 0)).toBe(limits.continueAsNewBytes);
    expect(firstExecution).toHaveLength(7);
    expect(run.executions.length).toBeGreaterThanOrEqual(8);
  });

  it('bounds-big-groups on v1: the byte cap stops the tail at 3 groups, then 2 groups over the cap are kept', async () => {
    const run = await runOnV1('bounds-big-groups');
    const limits = resolveLimits(onV1('bounds-big-groups').limits);
    expect(run.compactions.map((c) => [c.turn, c.ok, c.kept])).toEqual([
      [15, true, 3],
      [22, true, 2],
    ]);
    // The dialog before turn 22 minus the request of turn 20: the last two groups (and their commas), over the cap.
    const lastTwo = (run.compactions[1]?.bytesBefore ?? 0) - (run.turns.find((t) => t.turn === 20)?.requestBytes ?? 0);
    expect(lastTwo).toBeGreaterThan(limits.tailMaxBytes);
  });

  // Within the cap (rebuild.contract holds) only with the texts elided: built-in-scenarios.test.ts shows the arithmetic.
  it('bounds-long-texts on v1: two groups over the cap kept at each compaction, and the tail within the cap', async () => {
    const run = await runOnV1('bounds-long-texts');
    expect(run.compactions.map((c) => [c.turn, c.ok, c.kept])).toEqual([
      [11, true, 2],
      [20, true, 2],
    ]);
  });

  it.each(BOUND_MUTANTS.map((m) => [m.binary, m.catches.join(', '), m] as const))(
    '%s is caught by %s alone on its scenario',
    async (_binary, _catches, mutant) => {
      const summary = await runScenario(mutant.scenario, { environment: env });
      expect(summary.expectations[0]?.met, summary.expectations[0]?.detail).toBe(true);
      const failed = new Set(summary.runs.flatMap((r) => r.invariants.filter((i) => i.status === 'fail').map((i) => i.id)));
      expect([...failed]).toEqual([...mutant.catches]);
    },
  );
});
