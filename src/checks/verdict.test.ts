import { describe, expect, it } from 'vitest';
import { bytes } from './verdict.ts';

describe('bytes', () => {
  it("writes every number as toLocaleString('en-US') does", () => {
    const numbers = [
      0,
      -0,
      7,
      999,
      1000,
      -1234,
      12_345,
      2_097_152,
      151_762_574,
      2 ** 53 - 1,
      -(2 ** 53 - 1),
      2 ** 53,
      1e21,
      1.5,
      -1234.5678,
    ];
    for (const n of [...numbers, Number.NaN, Number.POSITIVE_INFINITY]) expect(bytes(n)).toBe(n.toLocaleString('en-US'));
  });
});
