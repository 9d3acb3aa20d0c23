/**
 * The scenarios the benchmark runs, built in code, and the plans runScenario's mocks make for
 * them (same seed, same run ids, same index), so the baseline can move the very same bytes.
 */
import { planRun, type RunPlan } from '../mocks/index.ts';
import { type Scenario, scenarioSchema } from '../src/scenario/index.ts';

export interface BenchScenarioInput {
  name: string;
  seed: number;
  count: number;
  concurrency: number;
  /** Every run this size (shape.overrides.targetTokens); drawn from the production curve when absent. */
  targetTokens?: number;
  /** Unscaled context bytes per turn (shape.turns.bytesPerTurn): how many turns a run of a given size takes. */
  bytesPerTurn?: number;
  maxTurns?: number;
  timeout?: string;
  limits?: Scenario['limits'];
  dynamicConfig?: Scenario['server']['dynamicConfig'];
}

export function benchScenario(input: BenchScenarioInput): Scenario {
  return scenarioSchema.parse({
    name: input.name,
    description: 'longrun benchmark',
    seed: input.seed,
    target: { binaries: ['v1'] },
    server: { dynamicConfig: input.dynamicConfig ?? {} },
    limits: input.limits ?? {},
    runs: { count: input.count, concurrency: input.concurrency, maxTurns: input.maxTurns ?? 400, timeout: input.timeout ?? '30m' },
    shape: {
      ...(input.targetTokens !== undefined ? { overrides: { targetTokens: input.targetTokens } } : {}),
      ...(input.bytesPerTurn !== undefined ? { turns: { bytesPerTurn: input.bytesPerTurn } } : {}),
    },
    expect: [{ on: 'v1', hold: 'all' }],
  });
}

/** runScenario's run ids: `<scenario>-run-0000`, ... (the trailing number is the plan's index). */
export function benchRunId(scenario: Scenario, index: number): string {
  return `${scenario.name}-run-${String(index).padStart(4, '0')}`;
}

export function benchPlan(scenario: Scenario, index: number): RunPlan {
  return planRun({ seed: scenario.seed, runId: benchRunId(scenario, index), shape: scenario.shape, index });
}
