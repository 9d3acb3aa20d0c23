/**
 * The slope of the least-squares line through a series: how fast a quantity (RSS) grows,
 * robust to the noise of single samples where first-versus-last is not.
 */

export interface Point {
  x: number;
  y: number;
}

/** dy/dx of the least-squares line; undefined when fewer than two distinct x values. */
export function leastSquaresSlope(points: readonly Point[]): number | undefined {
  if (points.length < 2) return undefined;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / points.length;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / points.length;
  // Centred sums: RSS in bytes against epoch-sized x would lose precision uncentred.
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - meanX) * (p.y - meanY);
    sxx += (p.x - meanX) ** 2;
  }
  return sxx === 0 ? undefined : sxy / sxx;
}
