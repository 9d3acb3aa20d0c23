/**
 * Least-squares fits of a metric against the step (turn or activity) it was measured at, a line
 * or a parabola, and the first step at which a fit reaches a limit.
 */

/** Coefficients, constant term first: y = c[0] + c[1]·x (+ c[2]·x²). */
export type Polynomial = readonly number[];

export function evaluate(p: Polynomial, x: number): number {
  return p.reduce((sum, c, power) => sum + c * x ** power, 0);
}

/**
 * The least-squares polynomial of `degree` (fewer terms when there are fewer distinct steps):
 * the normal equations, solved by Gauss-Jordan elimination with partial pivoting.
 */
export function fitPolynomial(xs: readonly number[], ys: readonly number[], degree: 1 | 2): Polynomial {
  const terms = Math.min(degree + 1, new Set(xs).size);
  if (terms === 0) return [0];
  const sumOf = (f: (x: number, y: number) => number) => xs.reduce((sum, x, i) => sum + f(x, ys[i] as number), 0);
  const rows = Array.from({ length: terms }, (_, r) => [
    ...Array.from({ length: terms }, (_, c) => sumOf((x) => x ** (r + c))),
    sumOf((x, y) => x ** r * y),
  ]);
  for (let col = 0; col < terms; col++) {
    const pivot = rows
      .slice(col)
      .reduce((best, row, i) => (Math.abs(row[col] ?? 0) > Math.abs(rows[best]?.[col] ?? 0) ? col + i : best), col);
    [rows[col], rows[pivot]] = [rows[pivot] as number[], rows[col] as number[]];
    const row = rows[col] as number[];
    const lead = row[col] as number;
    if (lead === 0) continue;
    for (const other of rows) {
      if (other === row) continue;
      const factor = (other[col] as number) / lead;
      for (let c = col; c <= terms; c++) other[c] = (other[c] as number) - factor * (row[c] as number);
    }
  }
  return rows.map((row, i) => (row[i] === 0 ? 0 : (row[terms] as number) / (row[i] as number)));
}

/** The first whole step after `from` at which the fit is at or over `limit`; undefined when it never gets there. */
export function firstStepReaching(p: Polynomial, limit: number, from: number): number | undefined {
  const [a = 0, b = 0, c = 0] = p;
  // Roots of c·x² + b·x + (a - limit) = 0; the fit is at or over the limit from the first root past `from` on which it rises.
  const roots =
    c === 0
      ? b === 0
        ? []
        : [(limit - a) / b]
      : (() => {
          const discriminant = b * b - 4 * c * (a - limit);
          if (discriminant < 0) return [];
          const root = Math.sqrt(discriminant);
          return [(-b - root) / (2 * c), (-b + root) / (2 * c)];
        })();
  if (evaluate(p, from + 1) >= limit) return from + 1;
  const ahead = roots
    .map((x) => Math.max(from + 1, Math.ceil(x - 1e-9)))
    .filter((x) => evaluate(p, x) >= limit)
    .sort((x, y) => x - y);
  return ahead[0];
}
