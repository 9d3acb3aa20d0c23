import { describe, expect, it } from 'vitest';
import { historyLimitOf } from './history-limits.ts';

describe('historyLimitOf', () => {
  it("tells the server's size termination from its count termination", () => {
    expect(historyLimitOf('Workflow history size exceeds limit.')).toBe('history-size');
    expect(historyLimitOf('Workflow history count exceeds limit.')).toBe('history-count');
  });

  it('reads the reason in any case and without its full stop', () => {
    expect(historyLimitOf('workflow history COUNT exceeds limit')).toBe('history-count');
  });

  it('names no limit for other terminations', () => {
    expect(historyLimitOf('longrun stopped the run after its timeout of 60 s')).toBeUndefined();
    expect(historyLimitOf('Workflow mutable state size exceeds limit.')).toBeUndefined();
    expect(historyLimitOf('')).toBeUndefined();
  });
});
