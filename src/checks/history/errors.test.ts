import { describe, expect, it } from 'vitest';
import { HistoryLoadError } from './errors.ts';

describe('HistoryLoadError', () => {
  it('is one line naming the source and what is wrong, told apart by its name', () => {
    const error = new HistoryLoadError('runs/run-0001.json', 'event 7 follows event 5');
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('runs/run-0001.json: event 7 follows event 5');
    expect(error.source).toBe('runs/run-0001.json');
    expect(error.name).toBe('HistoryLoadError');
    expect(String(error)).toBe('HistoryLoadError: runs/run-0001.json: event 7 follows event 5');
  });
});
