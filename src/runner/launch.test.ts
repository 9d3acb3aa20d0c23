import { describe, expect, it } from 'vitest';
import { LONGRUN_SETTINGS } from '../contract/kernel-api.ts';
import { scenarioSchema } from '../scenario/index.ts';
import { runInputOf } from './launch.ts';

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
      settings: LONGRUN_SETTINGS,
      maxTurns: 30,
      limits: { compactionTriggerBytes: 40_000 },
    });
  });
});
