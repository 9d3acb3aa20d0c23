import { describe, expect, it } from 'vitest';
import { type ArrivalPosition, type Arrivals, arrive } from './arrival-loop.ts';

/** A clock that jumps to each wait's end, stopped once `stopAfter` runs have started; the runs end at once. */
function played(arrivals: Arrivals, start: { now: number }, stopAfter = Number.POSITIVE_INFINITY) {
  const starts: Array<[index: number, atMs: number]> = [];
  const clock = {
    now: () => start.now,
    sleep: async (ms: number) => {
      start.now += ms;
    },
    stopped: () => starts.length >= stopAfter,
  };
  const position = arrive(arrivals, clock, async (index) => {
    starts.push([index, start.now]);
  });
  return position.then((at) => ({ at, starts }));
}

/** The loop stopped after `stopAfter` runs, `pauseMs` passed, then gone on from its position. */
async function resumed(arrivals: Arrivals, stopAfter: number, pauseMs: number) {
  const time = { now: 0 };
  const first = await played(arrivals, time, stopAfter);
  time.now += pauseMs;
  const second = await played({ ...arrivals, from: first.at }, time);
  return { first: first.at, last: second.at, starts: [...first.starts, ...second.starts] };
}

describe('arrive', () => {
  it('reports where it stopped, and goes on from there: each index once, none past the count', async () => {
    const { first, last, starts } = await resumed({ count: 5, concurrency: 2 }, 2, 0);
    expect(first).toEqual<ArrivalPosition>({ next: 2, startedAtMs: 0, done: false });
    expect(last).toEqual<ArrivalPosition>({ next: 5, startedAtMs: 0, done: true });
    expect(starts.map(([index]) => index)).toEqual([0, 1, 2, 3, 4]);
  });

  it('is done when stopped on its last run', async () => {
    const { at } = await played({ count: 2, concurrency: 2 }, { now: 0 }, 2);
    expect(at.done).toBe(true);
  });

  it("keeps a ramp's timing across a pause: an overdue arrival starts at once, the later ones at their offsets", async () => {
    const offsets = [0, 100, 250, 1000];
    const { last, starts } = await resumed({ count: 1000, concurrency: 10, offsetMs: (index) => offsets[index] }, 2, 300);
    expect(starts).toEqual([
      [0, 0],
      [1, 100],
      [2, 400],
      [3, 1000],
    ]);
    expect(last.done).toBe(true);
  });

  it("keeps a duration's end across a pause: the runs due before it, no more", async () => {
    const { starts } = await resumed({ count: 1, concurrency: 10, arrivalRate: 10, durationMs: 1000 }, 3, 0);
    expect(starts.map(([index]) => index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(starts.map(([, atMs]) => atMs)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
  });
});
