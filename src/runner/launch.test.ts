import { describe, expect, it } from 'vitest';
import { LONGRUN_SETTINGS } from '../contract/kernel-api.ts';
import { scenarioSchema } from '../scenario/index.ts';
import { runInputOf, startArgsOf } from './launch.ts';

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

describe('startArgsOf', () => {
  const scenario = scenarioSchema.parse({ name: 'launched', seed: 1, runs: { maxTurns: 12 }, expect: [{ on: 'v1', hold: 'all' }] });
  const plan = { systemPrompt: 'You are an agent.', userRequest: 'What is the weather? [longrun-run:launched-run-0001]' };
  const planFor = () => plan;

  it("starts the contract's workflow with the RunInput alone", () => {
    expect(startArgsOf({ scenario, planFor }, 'launched-run-0001')).toEqual([runInputOf(scenario, 'launched-run-0001', plan)]);
  });

  it("starts a team's workflow with its own signature: a question as a string, or an object of its own", () => {
    expect(startArgsOf({ scenario, planFor, startArgs: ['{{userRequest}}'] }, 'launched-run-0001')).toEqual([plan.userRequest]);
    const startArgs = [{ prompt: '{{ userRequest }}', session: 'chat-{{runId}}', budget: { turns: '{{maxTurns}}' } }, 'v2'];
    expect(startArgsOf({ scenario, planFor, startArgs }, 'launched-run-0001')).toEqual([
      { prompt: plan.userRequest, session: 'chat-launched-run-0001', budget: { turns: 12 } },
      'v2',
    ]);
  });
});
