/** Chart 4: turn latency percentiles over all runs. */

import type { Summary } from '../../result/index.ts';
import { formatCount, formatDuration } from '../format.ts';
import type { Chart } from './chart.ts';
import { COLORS } from './palette.ts';
import { coordinate, createPlot, emptyChart, tooltip } from './plot.ts';

export const LATENCY_CHART = 'latency';
const TITLE = 'Turn latency percentiles';
const BAR_FRACTION = 0.5;

export function latencyChart(summary: Summary): Chart {
  const samples = summary.runs.reduce((sum, run) => sum + run.turns.filter((turn) => turn.latencyMs !== undefined).length, 0);
  const { p50, p95, p99 } = summary.totals.latency;
  if (samples === 0) {
    return {
      name: LATENCY_CHART,
      title: TITLE,
      svg: emptyChart(LATENCY_CHART, TITLE, 'no turn latency was recorded'),
      caption: '',
      legend: [],
    };
  }
  const bars = [
    { label: 'p50', value: p50 },
    { label: 'p95', value: p95 },
    { label: 'p99', value: p99 },
  ];
  const plot = createPlot({
    name: LATENCY_CHART,
    title: TITLE,
    xDomain: [0, bars.length],
    yDomain: [0, Math.max(1, ...bars.map((bar) => bar.value)) * 1.15],
    xLabel: 'percentile',
    yLabel: 'turn latency',
    xFormat: String,
    yFormat: formatDuration,
    xCategories: bars.map((bar) => bar.label),
  });
  bars.forEach((bar, index) => {
    const x0 = plot.x(index + (1 - BAR_FRACTION) / 2);
    const x1 = plot.x(index + (1 + BAR_FRACTION) / 2);
    const top = plot.y(bar.value);
    plot.add(
      `<rect class="bar" x="${coordinate(x0)}" y="${coordinate(top)}" width="${coordinate(x1 - x0)}" height="${coordinate(plot.bottom - top)}" fill="${COLORS.bar}">${tooltip(`${bar.label}: ${formatDuration(bar.value)}`)}</rect>` +
        `<text x="${coordinate((x0 + x1) / 2)}" y="${coordinate(top - 5)}" fill="#333" font-size="11" text-anchor="middle">${formatDuration(bar.value)}</text>`,
    );
  });
  return {
    name: LATENCY_CHART,
    title: TITLE,
    svg: plot.svg(),
    caption: `Time from call_model scheduled to completed, over ${formatCount(samples)} turns of all runs.`,
    legend: [],
  };
}
