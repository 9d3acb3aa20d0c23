import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leastSquaresSlope } from './least-squares.ts';

describe('leastSquaresSlope', () => {
  it('is the slope of points on a line', () => {
    expect(leastSquaresSlope([0, 1, 2, 3].map((x) => ({ x, y: 5 - 2 * x })))).toBeCloseTo(-2, 12);
  });

  it('fits the line through noisy points, not the first and last', () => {
    // First-vs-last says (10 - 10) / 4 = 0. Sxy = 3.2 + 1.6 + 0 + 4.4 - 3.2 = 6, Sxx = 10: 0.6.
    const points = [
      { x: 0, y: 10 },
      { x: 1, y: 10 },
      { x: 2, y: 12 },
      { x: 3, y: 16 },
      { x: 4, y: 10 },
    ];
    expect(leastSquaresSlope(points)).toBeCloseTo(0.6, 12);
    const climbing = [
      { x: 0, y: 0 },
      { x: 1, y: 3 },
      { x: 2, y: 2 },
      { x: 3, y: 5 },
    ];
    // Sxy = (-1.5)(-2.5) + (-0.5)(0.5) + (0.5)(-0.5) + (1.5)(2.5) = 7; Sxx = 5.
    expect(leastSquaresSlope(climbing)).toBeCloseTo(1.4, 12);
  });

  it('has no slope for fewer than two points or a single x', () => {
    expect(leastSquaresSlope([])).toBeUndefined();
    expect(leastSquaresSlope([{ x: 1, y: 2 }])).toBeUndefined();
    expect(
      leastSquaresSlope([
        { x: 3, y: 1 },
        { x: 3, y: 9 },
      ]),
    ).toBeUndefined();
  });

  it('stays exact at epoch-sized x and RSS-sized y', () => {
    const t0 = 1_800_000_000_000;
    const points = Array.from({ length: 600 }, (_, i) => ({ x: t0 + i * 1000, y: 300e6 + 25 * i * 1000 }));
    expect(leastSquaresSlope(points)).toBeCloseTo(25, 6);
  });

  it('recovers any line, whatever order the points come in', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e3, max: 1e3, noNaN: true }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.uniqueArray(fc.integer({ min: -1000, max: 1000 }), { minLength: 2, maxLength: 50 }),
        (slope, intercept, xs) => {
          const fitted = leastSquaresSlope(xs.map((x) => ({ x, y: intercept + slope * x })));
          expect(fitted).toBeCloseTo(slope, 6);
        },
      ),
    );
  });
});
