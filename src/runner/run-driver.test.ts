import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../scenario/index.ts';
import { drive, driveOptionsOf } from './run-driver.ts';

const never = new AbortController().signal;

describe('drive', () => {
  it('keeps at most `concurrency` runs in flight and starts `count` in all', async () => {
    let inFlight = 0;
    let most = 0;
    const started = await drive({ count: 7, concurrency: 3, signal: never }, async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
    });
    expect(started).toBe(7);
    expect(most).toBe(3);
  });

  it('starts runs on a ramp in the order and number the ramp gives, and stops at its end', async () => {
    const indexes: number[] = [];
    // 0 -> 40 runs/s over 100 ms: 2 arrivals in all.
    const started = await drive(
      { count: 1000, concurrency: 10, ramp: { startRate: 0, stages: [{ durationMs: 100, target: 40 }] }, signal: never },
      async (index) => {
        indexes.push(index);
      },
    );
    expect(started).toBe(2);
    expect(indexes).toEqual([0, 1]);
  });

  it('starts nothing new after an abort', async () => {
    const controller = new AbortController();
    const started = await drive({ count: 100, concurrency: 1, signal: controller.signal }, async (index) => {
      if (index === 2) controller.abort();
    });
    expect(started).toBe(3);
  });
});

describe('driveOptionsOf', () => {
  const runs = { count: 4, concurrency: 2, arrivalRate: 0.5, duration: '90s' };
  const scenario = (input: Record<string, unknown>) =>
    scenarioSchema.parse({ name: 'driven', seed: 1, runs: input, expect: [{ on: 'v1', hold: 'all' }] });

  it("launches as the scenario's runs say, with a `--duration` over its own", () => {
    expect(driveOptionsOf(scenario(runs), never)).toEqual({
      count: 4,
      concurrency: 2,
      arrivalRate: 0.5,
      durationMs: 90_000,
      signal: never,
    });
    expect(driveOptionsOf(scenario(runs), never, 600_000)).toMatchObject({ durationMs: 600_000 });
    expect(driveOptionsOf(scenario({ count: 3 }), never)).toEqual({ count: 3, concurrency: 1, signal: never });
  });

  it('launches on a ramp with its stages in ms', () => {
    const ramped = driveOptionsOf(scenario({ ramp: { startRate: 0, stages: [{ duration: '2s', target: 4 }] } }), never);
    expect(ramped.ramp).toEqual({ startRate: 0, stages: [{ durationMs: 2_000, target: 4 }] });
  });
});
