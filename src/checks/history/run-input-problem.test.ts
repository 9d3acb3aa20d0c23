import { describe, expect, it } from 'vitest';
import { runInputProblem } from './run-input-problem.ts';

const VALID = {
  runId: 'run-1',
  systemPrompt: '',
  userRequest: 'fix the bug',
  settings: { agent: { model: 'agent' } },
  maxTurns: 30,
  limits: { blobLimitBytes: 262_144, tailMaxBytes: 32_768 },
};

describe('runInputProblem', () => {
  it('takes an input every kernel must take, an empty system prompt and no limits included', () => {
    expect(runInputProblem(VALID)).toBeNull();
    expect(runInputProblem({ ...VALID, limits: undefined })).toBeNull();
    // Every limit of the contract, each at the smallest positive value; the other models may be left out or named.
    const limits = { blobLimitBytes: 1, compactionTriggerBytes: 1, continueAsNewBytes: 1, cardMaxBytes: 1, tailMaxBytes: 1 };
    expect(runInputProblem({ ...VALID, limits, maxTurns: 1 })).toBeNull();
    const settings = { agent: { model: 'a' }, compaction: { model: 'c' }, judge: {} };
    expect(runInputProblem({ ...VALID, settings, resume: undefined })).toBeNull();
  });

  it.each([
    [{ runId: '' }, 'runId is not a non-empty string'],
    [{ systemPrompt: 7 }, 'systemPrompt is not a string'],
    [{ userRequest: '  ' }, 'userRequest is not a non-empty string'],
    [{ settings: { agent: {} } }, 'settings.agent.model is not a non-empty string'],
    [{ settings: { agent: { model: 'agent' }, compaction: { model: '' } } }, 'settings.compaction.model is not a non-empty string'],
    [{ maxTurns: 0 }, 'maxTurns is not a positive integer'],
    [{ maxTurns: 1.5 }, 'maxTurns is not a positive integer'],
    [{ limits: 'small' }, 'limits is not an object'],
    [{ limits: { triggerBytes: 5 } }, 'limits.triggerBytes is not a limit of the contract'],
    [{ limits: { tailMaxBytes: 0 } }, 'limits.tailMaxBytes is not a positive integer'],
    [{ resume: {} }, 'it carries a resume'],
    [{ resume: null }, 'it carries a resume'],
    [{ runId: ' \t' }, 'runId is not a non-empty string'],
    [{ runId: 7 }, 'runId is not a non-empty string'],
    [{ systemPrompt: undefined }, 'systemPrompt is not a string'],
    [{ userRequest: 'x'.repeat(0) }, 'userRequest is not a non-empty string'],
    [{ settings: undefined }, 'settings.agent.model is not a non-empty string'],
    [{ settings: { agent: 'agent' } }, 'settings.agent.model is not a non-empty string'],
    [{ settings: { agent: { model: ' ' } } }, 'settings.agent.model is not a non-empty string'],
    [{ settings: { agent: { model: 'agent' }, judge: { model: 5 } } }, 'settings.judge.model is not a non-empty string'],
    [{ maxTurns: -1 }, 'maxTurns is not a positive integer'],
    [{ maxTurns: '30' }, 'maxTurns is not a positive integer'],
    [{ maxTurns: 2 ** 53 }, 'maxTurns is not a positive integer'],
    [{ maxTurns: undefined }, 'maxTurns is not a positive integer'],
    [{ limits: null }, 'limits is not an object'],
    [{ limits: { blobLimitBytes: 262_144, toString: 1 } }, 'limits.toString is not a limit of the contract'],
    [{ limits: { cardMaxBytes: -5 } }, 'limits.cardMaxBytes is not a positive integer'],
    [{ limits: { continueAsNewBytes: 1.5 } }, 'limits.continueAsNewBytes is not a positive integer'],
  ])('names what is wrong: %j', (change, problem) => {
    expect(runInputProblem({ ...VALID, ...change })).toBe(problem);
  });
});
