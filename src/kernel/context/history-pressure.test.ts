import { describe, expect, it } from 'vitest';
import {
  CONTINUE_AS_NEW_HISTORY_BYTES,
  CONTINUE_AS_NEW_HISTORY_EVENTS,
  HISTORY_COUNT_LIMIT,
  HISTORY_SIZE_LIMIT_BYTES,
} from '../../contract/limits.ts';
import { historyCallsForContinueAsNew } from './history-pressure.ts';

const calm = { continueAsNewSuggested: false, historyLength: 1_200, historySize: 3_000_000 };

describe('historyCallsForContinueAsNew', () => {
  it('follows the server when it suggests ContinueAsNew, however short the history', () => {
    expect(historyCallsForContinueAsNew(calm)).toBe(false);
    expect(historyCallsForContinueAsNew({ ...calm, continueAsNewSuggested: true })).toBe(true);
  });

  it('continues as new at its own bounds when the server does not suggest it', () => {
    expect(historyCallsForContinueAsNew({ ...calm, historyLength: CONTINUE_AS_NEW_HISTORY_EVENTS - 1 })).toBe(false);
    expect(historyCallsForContinueAsNew({ ...calm, historyLength: CONTINUE_AS_NEW_HISTORY_EVENTS })).toBe(true);
    expect(historyCallsForContinueAsNew({ ...calm, historySize: CONTINUE_AS_NEW_HISTORY_BYTES - 1 })).toBe(false);
    expect(historyCallsForContinueAsNew({ ...calm, historySize: CONTINUE_AS_NEW_HISTORY_BYTES })).toBe(true);
  });

  it('keeps its own bounds below the limits they guard', () => {
    expect(CONTINUE_AS_NEW_HISTORY_EVENTS).toBeLessThan(HISTORY_COUNT_LIMIT);
    expect(CONTINUE_AS_NEW_HISTORY_BYTES).toBeLessThan(HISTORY_SIZE_LIMIT_BYTES);
    expect(Number.isInteger(CONTINUE_AS_NEW_HISTORY_EVENTS) && Number.isInteger(CONTINUE_AS_NEW_HISTORY_BYTES)).toBe(true);
  });
});
