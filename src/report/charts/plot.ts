/**
 * The bare bones of an SVG chart: a frame, linear scales, nice ticks, axes, reference lines.
 * Axes and reference lines are drawn as <line> and <text>, so every <path>, <rect> and
 * <circle> in a chart is data.
 */
import { escapeAttribute, escapeText } from '../escape.ts';

export const CHART_WIDTH = 760;
export const CHART_HEIGHT = 320;
const MARGIN = { top: 18, right: 18, bottom: 44, left: 76 };
const AXIS_COLOR = '#888';
const GRID_COLOR = '#e4e4e4';
const TEXT_COLOR = '#333';

export interface Point {
  x: number;
  y: number;
}

export interface PlotOptions {
  /** The `data-chart` attribute. */
  name: string;
  /** Spoken by screen readers and shown as the SVG's tooltip. */
  title: string;
  xDomain: readonly [number, number];
  yDomain: readonly [number, number];
  xLabel: string;
  yLabel: string;
  xFormat: (value: number) => string;
  yFormat: (value: number) => string;
  /** Category names for the x axis instead of numeric ticks (bar charts). */
  xCategories?: readonly string[];
}

export interface Plot {
  x(value: number): number;
  y(value: number): number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  /** Appends markup drawn above what came before. */
  add(markup: string): void;
  svg(): string;
}

/** A coordinate for SVG: at most one decimal, no trailing zero. */
export function coordinate(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** Ticks at 1, 2 or 5 times a power of ten, about `target` of them, covering [min, max]. */
export function niceTicks(min: number, max: number, target = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? 10 * power) as number;
  const ticks: number[] = [];
  for (let tick = Math.ceil(min / step) * step; tick <= max + step * 1e-9; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return ticks;
}

export function linearScale(domain: readonly [number, number], range: readonly [number, number]): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** An SVG path through the points: `M x y L x y ...`. */
export function linePath(points: readonly Point[], plot: Pick<Plot, 'x' | 'y'>): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${coordinate(plot.x(p.x))} ${coordinate(plot.y(p.y))}`).join('');
}

function text(x: number, y: number, content: string, attributes = '', fill = TEXT_COLOR): string {
  return `<text x="${coordinate(x)}" y="${coordinate(y)}" fill="${fill}" font-size="11"${attributes}>${escapeText(content)}</text>`;
}

function line(x1: number, y1: number, x2: number, y2: number, stroke: string, extra = ''): string {
  return `<line x1="${coordinate(x1)}" y1="${coordinate(y1)}" x2="${coordinate(x2)}" y2="${coordinate(y2)}" stroke="${stroke}"${extra}/>`;
}

export function createPlot(options: PlotOptions): Plot {
  const left = MARGIN.left;
  const right = CHART_WIDTH - MARGIN.right;
  const top = MARGIN.top;
  const bottom = CHART_HEIGHT - MARGIN.bottom;
  const x = linearScale(options.xDomain, [left, right]);
  const y = linearScale(options.yDomain, [bottom, top]);
  const parts: string[] = [];

  for (const tick of niceTicks(options.yDomain[0], options.yDomain[1])) {
    parts.push(line(left, y(tick), right, y(tick), GRID_COLOR));
    parts.push(text(left - 6, y(tick) + 4, options.yFormat(tick), ' text-anchor="end"'));
  }
  if (options.xCategories) {
    options.xCategories.forEach((category, index) => {
      parts.push(text(x(index + 0.5), bottom + 16, category, ' text-anchor="middle"'));
    });
  } else {
    for (const tick of niceTicks(options.xDomain[0], options.xDomain[1], 8)) {
      parts.push(line(x(tick), bottom, x(tick), bottom + 4, AXIS_COLOR));
      parts.push(text(x(tick), bottom + 16, options.xFormat(tick), ' text-anchor="middle"'));
    }
  }
  parts.push(line(left, bottom, right, bottom, AXIS_COLOR), line(left, top, left, bottom, AXIS_COLOR));
  parts.push(text((left + right) / 2, CHART_HEIGHT - 8, options.xLabel, ' text-anchor="middle"'));
  parts.push(
    text(14, (top + bottom) / 2, options.yLabel, ` text-anchor="middle" transform="rotate(-90 14 ${coordinate((top + bottom) / 2)})"`),
  );

  return {
    x,
    y,
    left,
    right,
    top,
    bottom,
    add: (markup) => {
      parts.push(markup);
    },
    svg: () =>
      `<svg data-chart="${escapeAttribute(options.name)}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" role="img" aria-label="${escapeAttribute(options.title)}" font-family="system-ui, sans-serif"><title>${escapeText(options.title)}</title>${parts.join('')}</svg>`,
  };
}

/** A dashed horizontal line across the plot at `value`, labelled at its right end. */
export function referenceLine(plot: Plot, value: number, label: string, color: string): string {
  const at = plot.y(value);
  return `<g class="reference">${line(plot.left, at, plot.right, at, color, ' stroke-width="1.5" stroke-dasharray="6 4"')}${text(plot.right - 4, at - 5, label, ' text-anchor="end"', color)}</g>`;
}

/** The chart's place when there is nothing to draw: the same `data-chart`, and a sentence saying why. */
export function emptyChart(name: string, title: string, reason: string): string {
  return `<svg data-chart="${escapeAttribute(name)}" data-empty="true" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART_WIDTH} 60" role="img" aria-label="${escapeAttribute(`${title}: no data`)}" font-family="system-ui, sans-serif">${text(CHART_WIDTH / 2, 34, `No data: ${reason}`, ' text-anchor="middle" class="no-data"')}</svg>`;
}

/** A tooltip for a drawn element. */
export function tooltip(content: string): string {
  return `<title>${escapeText(content)}</title>`;
}
