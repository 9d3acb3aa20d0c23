/** Chart 2: request bytes accumulated in each execution against the ContinueAsNew budget. */

import type { Summary } from '../../result/index.ts';
import { formatBytes, formatCount, plural } from '../format.ts';
import type { Chart } from './chart.ts';
import { bandPath, seriesPath } from './marks.ts';
import { COLORS, seriesColor } from './palette.ts';
import { coordinate, createPlot, emptyChart, referenceLine, tooltip } from './plot.ts';
import { accumulatedLines, MAX_POINTS_PER_LINE, selectRuns } from './series.ts';

export const ACCUMULATED_BYTES_CHART = 'accumulated-bytes';
const TITLE = 'Accumulated request bytes per execution';
const DIAMOND = 5;

export function accumulatedBytesChart(summary: Summary): Chart {
  const { limits } = summary;
  const runs = summary.runs.filter((run) => run.turns.length > 0);
  if (runs.length === 0) {
    return {
      name: ACCUMULATED_BYTES_CHART,
      title: TITLE,
      svg: emptyChart(ACCUMULATED_BYTES_CHART, TITLE, 'no turn was recorded'),
      caption: '',
      legend: [],
    };
  }
  const accumulated = new Map(runs.map((run) => [run, accumulatedLines(run)]));
  const allLines = [...accumulated.values()].flatMap((lines) => lines.executions.map((e) => e.points));
  const maxTurn = allLines.reduce((max, line) => Math.max(max, line.at(-1)?.x ?? 0), 1);
  const maxBytes = allLines.reduce((max, line) => Math.max(max, line.at(-1)?.y ?? 0), 0);
  const plot = createPlot({
    name: ACCUMULATED_BYTES_CHART,
    title: TITLE,
    xDomain: [1, Math.max(2, maxTurn)],
    yDomain: [0, Math.max(limits.continueAsNewBytes, maxBytes) * 1.08],
    xLabel: 'turn',
    yLabel: 'accumulated request bytes',
    xFormat: formatCount,
    yFormat: formatBytes,
  });
  const { drawn, omitted } = selectRuns(runs);
  if (omitted > 0) plot.add(bandPath(allLines, plot));
  let continuations = 0;
  drawn.forEach((run, index) => {
    const lines = accumulated.get(run);
    if (!lines) return;
    for (const { execution, points } of lines.executions) {
      plot.add(seriesPath(points, plot, seriesColor(index), `${run.runId} execution ${execution}`));
    }
    for (const { execution, point } of lines.continueAsNew) {
      continuations++;
      const [x, y] = [coordinate(plot.x(point.x)), coordinate(plot.y(point.y))];
      const label = `${run.runId}: ContinueAsNew after turn ${point.x} (execution ${execution} to ${execution + 1}) at ${formatBytes(point.y)}`;
      plot.add(
        `<path class="continue-as-new" d="M${x} ${Number(y) - DIAMOND}l${DIAMOND} ${DIAMOND}l${-DIAMOND} ${DIAMOND}l${-DIAMOND} ${-DIAMOND}Z" fill="${COLORS.budget}" stroke="#fff" stroke-width="0.8">${tooltip(label)}</path>`,
      );
    }
  });
  plot.add(referenceLine(plot, limits.continueAsNewBytes, `ContinueAsNew budget ${formatBytes(limits.continueAsNewBytes)}`, COLORS.budget));

  const notes = [
    'Request bytes accumulated since each execution started; each line restarts when the run continues as new.',
    continuations > 0
      ? `Diamonds mark ${plural(continuations, 'ContinueAsNew', 'ContinueAsNews')} of the drawn runs.`
      : 'No drawn run continued as new.',
    omitted > 0
      ? `Showing ${drawn.length} of ${plural(runs.length, 'run')}: failing runs first, then the largest by peak request bytes; the grey band spans all ${plural(runs.length, 'run')}.`
      : '',
    drawn.some((run) => run.turns.length > MAX_POINTS_PER_LINE)
      ? 'Long lines are thinned to the lowest and highest point of each slice.'
      : '',
  ];
  return {
    name: ACCUMULATED_BYTES_CHART,
    title: TITLE,
    svg: plot.svg(),
    caption: notes.filter(Boolean).join(' '),
    legend: drawn.map((run, index) => ({ label: run.runId, color: seriesColor(index) })),
  };
}
