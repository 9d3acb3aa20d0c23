import { describe, expect, it } from 'vitest';
import { JudgingPool } from './judging-pool.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('JudgingPool', () => {
  it('runs at most `parallel` judgings at once; a submit returns once its judging has started', async () => {
    const pool = new JudgingPool(2);
    const gates = [gate(), gate(), gate()];
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const judge = (i: number) => async () => {
      started.push(i);
      most = Math.max(most, ++running);
      await gates[i]?.opened;
      running--;
    };
    await pool.submit(judge(0));
    await pool.submit(judge(1));
    let thirdStarted = false;
    const third = pool.submit(judge(2)).then(() => (thirdStarted = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(thirdStarted).toBe(false);
    gates[1]?.open();
    await third;
    gates[0]?.open();
    gates[2]?.open();
    await pool.drain();
    expect(started.sort()).toEqual([0, 1, 2]);
    expect(most).toBe(2);
  });

  it('drains only when every judging, the waiting ones included, has finished', async () => {
    const pool = new JudgingPool(1);
    const done: number[] = [];
    const slow = gate();
    await pool.submit(async () => {
      await slow.opened;
      done.push(0);
    });
    const second = pool.submit(async () => {
      done.push(1);
    });
    const drained = pool.drain().then(() => [...done]);
    slow.open();
    await second;
    expect(await drained).toEqual([0, 1]);
  });

  it('surfaces the first failure from drain and refuses new work after it', async () => {
    const pool = new JudgingPool(2);
    await pool.submit(async () => {
      throw new Error('fetch failed');
    });
    await expect(pool.drain()).rejects.toThrow('fetch failed');
    await expect(pool.submit(async () => {})).rejects.toThrow('fetch failed');
  });

  it('rejects a parallelism below one', () => {
    expect(() => new JudgingPool(0)).toThrow('parallel must be at least 1, got 0');
  });
});
