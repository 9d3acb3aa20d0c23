import { describe, expect, it } from 'vitest';
import { windowRate } from './steady-rate.ts';

describe('windowRate', () => {
  const samples = [0, 1000, 2000, 3000, 4000, 5000].map((atMs, i) => ({ atMs: atMs + 5, turns: i * i }));

  it('counts the turns from the first sample in the window to the first past its end, over their own times', () => {
    // Starts at 1005 ms (1 turn), ends at 4005 ms (16 turns): the warm-up and the tail are left out.
    expect(windowRate(samples, 1000, 3000)).toEqual({ turns: 15, seconds: 3, turnsPerSecond: 5 });
  });

  it('refuses a window the samples do not reach past, saying where they end', () => {
    expect(() => windowRate(samples, 1000, 4500)).toThrow('the samples end at 5005 ms, before the window 1000-5500 ms closes');
    expect(() => windowRate([], 0, 1000)).toThrow('end at 0 ms');
  });
});
