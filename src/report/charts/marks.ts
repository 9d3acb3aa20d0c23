/** Data marks shared by the line charts. */
import { COLORS } from './palette.ts';
import { coordinate, linePath, type Plot, type Point, tooltip } from './plot.ts';
import { band, decimate } from './series.ts';

/** All lines' lowest and highest values per column, as a grey area: the runs not drawn one by one. */
export function bandPath(lines: readonly (readonly Point[])[], plot: Plot): string {
  const columns = band(lines);
  if (columns.length === 0) return '';
  const upper = columns.map((c) => ({ x: c.x, y: c.high }));
  const lower = [...columns].reverse().map((c) => ({ x: c.x, y: c.low }));
  return `<path class="band" d="${linePath([...upper, ...lower], plot)}Z" fill="${COLORS.band}" fill-opacity="0.25" stroke="${COLORS.band}" stroke-width="0.5">${tooltip('all runs: lowest to highest')}</path>`;
}

/** One run's line, thinned to the point budget. */
export function seriesPath(points: readonly Point[], plot: Plot, color: string, label: string): string {
  return `<path class="series" d="${linePath(decimate(points), plot)}" fill="none" stroke="${color}" stroke-width="1.5">${tooltip(label)}</path>`;
}

/** A dot at a data point, with its tooltip. */
export function dot(plot: Plot, point: Point, options: { className: string; color: string; label: string; radius?: number }): string {
  return `<circle class="${options.className}" cx="${coordinate(plot.x(point.x))}" cy="${coordinate(plot.y(point.y))}" r="${options.radius ?? 3.5}" fill="${options.color}" stroke="#fff" stroke-width="0.8">${tooltip(options.label)}</circle>`;
}
