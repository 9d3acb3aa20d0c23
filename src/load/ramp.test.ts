import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ramp } from '../scenario/soak-schema.ts';
import { arrivalSchedule } from './ramp.ts';

/** Every start the schedule gives, in order. */
function offsets(ramp: Ramp): number[] {
  const schedule = arrivalSchedule(ramp);
  const all: number[] = [];
  for (let i = 0; ; i++) {
    const at = schedule.offsetMs(i);
    if (at === undefined) return all;
    all.push(at);
  }
}

describe('arrivalSchedule', () => {
  it('starts runs evenly at a constant rate, as the driver does today', () => {
    expect(offsets({ startRate: 2, stages: [{ durationMs: 3000, target: 2 }] })).toEqual([0, 500, 1000, 1500, 2000, 2500]);
  });

  it('spaces runs ever closer on a ramp from zero: run k at sqrt(2 D k / R)', () => {
    // 0 -> 4 runs/s over 10 s: 20 runs; run k when 4 t^2 / 20 = k.
    const ramp = { startRate: 0, stages: [{ durationMs: 10_000, target: 4 }] };
    expect(arrivalSchedule(ramp).arrivals).toBe(20);
    const got = offsets(ramp);
    expect(got).toHaveLength(20);
    for (const [k, ms] of got.entries()) expect(ms).toBeCloseTo(Math.sqrt(5 * k) * 1000, 6);
  });

  it('goes through stages: up, hold, down, and a pause with no runs', () => {
    const ramp: Ramp = {
      startRate: 1,
      stages: [
        { durationMs: 2000, target: 3 }, // 4 runs
        { durationMs: 2000, target: 3 }, // 6
        { durationMs: 2000, target: 0 }, // 3
        { durationMs: 5000, target: 0 }, // none
      ],
    };
    const schedule = arrivalSchedule(ramp);
    expect(schedule.durationMs).toBe(11_000);
    expect(schedule.arrivals).toBe(13);
    const got = offsets(ramp);
    expect(got).toHaveLength(13);
    expect(got.filter((ms) => ms < 2000)).toHaveLength(4);
    expect(got.filter((ms) => ms >= 2000 && ms < 4000)).toHaveLength(6);
    expect(got.filter((ms) => ms >= 4000 && ms < 6000)).toHaveLength(3);
    expect(schedule.rateAt(1000)).toBe(2);
    expect(schedule.rateAt(5000)).toBe(1.5);
    expect(schedule.rateAt(11_000)).toBe(0);
    expect([schedule.stageAt(0), schedule.stageAt(3999), schedule.stageAt(4000), schedule.stageAt(11_000)]).toEqual([0, 1, 2, undefined]);
  });

  it('matches the integral of its rate at every start', () => {
    const stage = fc.record({ durationMs: fc.integer({ min: 100, max: 20_000 }), target: fc.double({ min: 0, max: 20, noNaN: true }) });
    fc.assert(
      fc.property(fc.double({ min: 0, max: 20, noNaN: true }), fc.array(stage, { minLength: 1, maxLength: 4 }), (startRate, stages) => {
        const ramp = { startRate, stages };
        const schedule = arrivalSchedule(ramp);
        const got = offsets(ramp);
        expect(got).toHaveLength(schedule.arrivals);
        // Arrivals so far at each start, integrated (trapezoids are exact on linear pieces).
        const arrivedBy = (ms: number) => {
          let n = 0;
          let from = 0;
          for (const s of stages) {
            const to = Math.min(ms, from + s.durationMs);
            if (to > from) n += ((schedule.rateAt(from) + schedule.rateAt(to - 1e-9)) / 2) * ((to - from) / 1000);
            from += s.durationMs;
          }
          return n;
        };
        got.forEach((ms, k) => {
          expect(ms).toBeGreaterThanOrEqual(k === 0 ? 0 : (got[k - 1] as number));
          expect(ms).toBeLessThanOrEqual(schedule.durationMs);
          expect(arrivedBy(ms)).toBeCloseTo(k, 4);
        });
      }),
    );
  });

  it('names the field of a bad ramp', () => {
    expect(() => arrivalSchedule({ startRate: -1, stages: [{ durationMs: 1000, target: 1 }] })).toThrow(
      'ramp.startRate: want a rate >= 0, got -1',
    );
    expect(() => arrivalSchedule({ startRate: 1, stages: [] })).toThrow('ramp.stages: want at least one stage');
    expect(() => arrivalSchedule({ startRate: 1, stages: [{ durationMs: 0, target: 1 }] })).toThrow('ramp.stages.0.duration');
    expect(() => arrivalSchedule({ startRate: 1, stages: [{ durationMs: 10, target: Number.NaN }] })).toThrow('ramp.stages.0.target');
  });
});
