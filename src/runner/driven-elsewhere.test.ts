import { describe, expect, it } from 'vitest';
import { arrive } from '../shared/arrival-loop.ts';
import { scheduleOf } from './driven-elsewhere.ts';

describe('scheduleOf', () => {
  it('keeps a closed or open schedule as it is', () => {
    expect(scheduleOf({ count: 4, concurrency: 2 })).toEqual({ count: 4, concurrency: 2 });
    expect(scheduleOf({ count: 4, concurrency: 2, arrivalRate: 0.5, durationMs: 60_000 })).toEqual({
      count: 4,
      concurrency: 2,
      arrivalRate: 0.5,
      durationMs: 60_000,
    });
  });

  it("gives a ramp as its arrivals' offsets, which start the runs the ramp starts, when it starts them", async () => {
    // 0 -> 40 runs/s over 100 ms, then 40 runs/s for 50 ms: 4 arrivals in all.
    const ramp = {
      startRate: 0,
      stages: [
        { durationMs: 100, target: 40 },
        { durationMs: 50, target: 40 },
      ],
    };
    const { offsetsMs, ...rest } = scheduleOf({ count: 1000, concurrency: 10, ramp });
    expect(rest).toEqual({ count: 1000, concurrency: 10 });
    expect(offsetsMs).toHaveLength(4);
    expect(offsetsMs).toEqual([...(offsetsMs ?? [])].sort((a, b) => a - b));
    // Played on a clock that jumps to each wait's end, the loop starts each run at its offset.
    let now = 0;
    const startedAt: number[] = [];
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        now += ms;
      },
      stopped: () => false,
    };
    await arrive({ count: 1000, concurrency: 10, offsetMs: (index) => offsetsMs?.[index] }, clock, async () => {
      startedAt.push(now);
    });
    expect(startedAt).toEqual(offsetsMs);
  });
});
