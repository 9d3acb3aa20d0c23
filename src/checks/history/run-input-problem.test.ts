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
  ])('names what is wrong: %j', (change, problem) => {
    expect(runInputProblem({ ...VALID, ...change })).toBe(problem);
  });
});
