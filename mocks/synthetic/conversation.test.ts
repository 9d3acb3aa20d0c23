import { describe, expect, it } from 'vitest';
import { readRunMarker } from '../../src/contract/run-marker.ts';
import { conversationMessage, messageEndTurns } from './conversation.ts';
import { planRun } from './plan-run.ts';

describe('messageEndTurns', () => {
  it("shares the plan's turns among the messages, in order and as evenly as they go, the last ending with the plan", () => {
    expect(messageEndTurns(9, 3)).toEqual([3, 6, 9]);
    expect(messageEndTurns(10, 3)).toEqual([3, 7, 10]);
    expect(messageEndTurns(6, 1)).toEqual([6]);
  });

  it('gives every message a turn of its own when the plan has fewer turns than messages', () => {
    expect(messageEndTurns(2, 4)).toEqual([1, 2, 3, 4]);
  });

  it('refuses a count of messages that is no positive integer', () => {
    expect(() => messageEndTurns(9, 0)).toThrow(/messages: must be an integer >= 1, got 0/);
  });
});

describe('conversationMessage', () => {
  const plan = planRun({ seed: 3, runId: 'chat-run-0002', shape: { overrides: { turns: 6 } } });

  it('is the user request first, with its run marker; the later messages ask on in the run, without one', () => {
    expect(conversationMessage(plan, 0)).toBe(plan.userRequest);
    expect(readRunMarker(conversationMessage(plan, 0))).toBe('chat-run-0002');
    const later = [1, 2, 3].map((index) => conversationMessage(plan, index));
    for (const message of later) expect(readRunMarker(message)).toBeNull();
    expect(new Set(later).size).toBe(3);
    expect(later[0]).toContain(plan.story.ticket);
  });

  it('is the same text for the same seed, run and index', () => {
    const again = planRun({ seed: 3, runId: 'chat-run-0002', shape: { overrides: { turns: 6 } } });
    expect(conversationMessage(again, 2)).toBe(conversationMessage(plan, 2));
  });
});
