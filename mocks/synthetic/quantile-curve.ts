/**
 * A distribution given by its quantiles: knots [q, value] from q = 0 to q = 1, interpolated
 * log-linearly. Drawing through it with a uniform u is the inverse-CDF method, so known
 * production quantiles (p50, p90, max) are reproduced by construction.
 */
export type QuantileCurve = readonly (readonly [quantile: number, value: number])[];

/** The value at quantile u in [0, 1]. */
export function curveAt(curve: QuantileCurve, u: number): number {
  const clamped = Math.min(1, Math.max(0, u));
  for (let i = 1; i < curve.length; i++) {
    const [q1, v1] = curve[i] as readonly [number, number];
    if (clamped <= q1) {
      const [q0, v0] = curve[i - 1] as readonly [number, number];
      const t = (clamped - q0) / (q1 - q0);
      return Math.exp(Math.log(v0) + t * (Math.log(v1) - Math.log(v0)));
    }
  }
  return (curve[curve.length - 1] as readonly [number, number])[1];
}

/** Why the knots do not form a curve, or null when they do. */
export function curveProblem(curve: QuantileCurve): string | null {
  if (curve.length < 2) return 'needs at least two knots';
  if (curve[0]?.[0] !== 0) return 'the first knot must be at quantile 0';
  if (curve[curve.length - 1]?.[0] !== 1) return 'the last knot must be at quantile 1';
  for (let i = 0; i < curve.length; i++) {
    const [q, v] = curve[i] as readonly [number, number];
    if (!(v > 0)) return `knot ${i}: value must be > 0`;
    const previous = curve[i - 1];
    if (previous && !(q > previous[0])) return `knot ${i}: quantiles must increase`;
    if (previous && v < previous[1]) return `knot ${i}: values must not decrease`;
  }
  return null;
}
