import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../scenario/index.ts';
import { MODELS, runInputOf } from './launch.ts';

describe('runInputOf', () => {
  it("gives a run its plan's prompt and request, the models, the scenario's turn cap and kernel limits", () => {
    const scenario = scenarioSchema.parse({
      name: 'launched',
      seed: 1,
      runs: { maxTurns: 30 },
      limits: { compactionTriggerBytes: 40_000 },
      expect: [{ on: 'v1', hold: 'all' }],
    });
    expect(runInputOf(scenario, 'launched-run-0003', { systemPrompt: 'You are an agent.', userRequest: 'Fix the build.' })).toEqual({
      runId: 'launched-run-0003',
      systemPrompt: 'You are an agent.',
      userRequest: 'Fix the build.',
      settings: MODELS,
      maxTurns: 30,
      limits: { compactionTriggerBytes: 40_000 },
    });
  });
});
