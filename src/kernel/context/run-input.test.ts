import { describe, expect, it } from 'vitest';
import type { RunInput } from '../../contract/kernel-api.ts';
import { GENESIS_HASH } from '../../contract/kernel-api.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { checkRunInput } from './run-input.ts';

const input: RunInput = {
  runId: 'run-1',
  systemPrompt: 'You are an agent.',
  userRequest: 'Fix the bug.',
  settings: { agent: { model: 'agent-model' } },
  maxTurns: 10,
};

describe('checkRunInput', () => {
  it('resolves the default limits, overlaid with the run overrides', () => {
    expect(checkRunInput(input)).toEqual(DEFAULT_LIMITS);
    expect(checkRunInput({ ...input, limits: { compactionTriggerBytes: 120_000 } })).toEqual({
      ...DEFAULT_LIMITS,
      compactionTriggerBytes: 120_000,
    });
  });

  it('names the bad field in one line', () => {
    const cases: [Partial<RunInput> | Record<string, unknown>, string][] = [
      [{ runId: '' }, 'runId must be a non-empty string, got ""'],
      [{ userRequest: 3 }, 'userRequest must be a non-empty string, got 3'],
      [{ maxTurns: 0 }, 'maxTurns must be an integer >= 1, got 0'],
      [{ maxTurns: 2.5 }, 'maxTurns must be an integer >= 1, got 2.5'],
      [{ settings: { agent: { model: ' ' } } }, 'settings.agent.model must be a non-empty string, got " "'],
      [{ settings: { agent: { model: 'm' }, compaction: { model: '' } } }, 'settings.compaction.model must be a non-empty string, got ""'],
      [{ limits: { blobLimitBytes: -1 } }, 'limits.blobLimitBytes must be a positive integer, got -1'],
      [{ limits: { blobSize: 5 } }, 'limits.blobSize is not a known limit'],
      [{ resume: { messages: [], counters: {}, journal: {} } }, 'resume.messages[0] must be the system prompt'],
    ];
    for (const [patch, message] of cases) {
      expect(() => checkRunInput({ ...input, ...patch } as RunInput)).toThrow(message);
    }
  });

  it('checks what a ContinueAsNew carries', () => {
    const resume = {
      messages: [
        { role: 'system' as const, content: 's' },
        { role: 'user' as const, content: 'u' },
      ],
      counters: { turns: 3, totalRequestBytes: 10, compactions: 0, compactionFailures: 0, executions: 1 },
      journal: { nextSeq: 5, headHash: GENESIS_HASH.replace(/0$/, 'a') },
    };
    expect(() => checkRunInput({ ...input, resume })).not.toThrow();
    expect(() => checkRunInput({ ...input, resume: { ...resume, journal: { nextSeq: 5, headHash: 'xyz' } } })).toThrow(
      'resume.journal.headHash must be 64 lowercase hex digits',
    );
    expect(() => checkRunInput({ ...input, resume: { ...resume, counters: { ...resume.counters, executions: 0 } } })).toThrow(
      'resume.counters.executions must be an integer >= 1, got 0',
    );
  });
});
