/**
 * forecast.html: the page of `longrun forecast --html`, one chart per run and metric: what the
 * history measured per step, the fit carried forward (dashed), each limit as a reference line
 * and a dot where the fit reaches it. Self-contained like report.html; pure: same forecasts, same bytes.
 */
import { evaluateFit as evaluate, type Forecast, METRICS, type Metric } from '../checks/index.ts';
import type { Chart } from './charts/chart.ts';
import { dot, seriesPath } from './charts/marks.ts';
import { COLORS, seriesColor } from './charts/palette.ts';
import { createPlot, linePath, referenceLine, tooltip } from './charts/plot.ts';
import { escapeText } from './escape.ts';
import { formatBytes, formatCount } from './format.ts';
import { pageHead } from './html-assets.ts';
import { chartsSection } from './html-sections.ts';

const TITLES: Record<Metric, string> = { largestPayload: 'Largest payload', historyBytes: 'History bytes', events: 'Events' };
/** The fit is drawn at most this many times past the steps observed: a limit further off is named in the caption only. */
const MAX_REACH = 4;
const FIT_POINTS = 120;

function metricChart(forecast: Forecast, metric: Metric, index: number): Chart {
  const { samples, unit } = forecast;
  const { fit, limits } = forecast.metrics[metric];
  const format = metric === 'events' ? formatCount : formatBytes;
  const first = samples[0]?.step ?? 1;
  const last = samples.at(-1)?.step ?? 1;
  const reach = Math.max(last + 1, Math.ceil(last * MAX_REACH));
  const shown = limits.filter((l) => l.step !== undefined && l.step <= reach);
  const xMax = Math.max(last + 1, ...shown.map((l) => l.step as number));
  const observedMax = samples.reduce((max, s) => Math.max(max, s[metric]), 0);
  const name = `forecast-${index + 1}-${metric}`;
  const title = `${forecast.runId}: ${TITLES[metric]} per ${unit}`;
  const plot = createPlot({
    name,
    title,
    xDomain: [first, xMax],
    yDomain: [0, Math.max(observedMax, evaluate(fit, xMax), ...shown.map((l) => l.value)) * 1.08],
    xLabel: unit,
    yLabel: TITLES[metric].toLowerCase(),
    xFormat: formatCount,
    yFormat: format,
  });
  for (const limit of shown) plot.add(referenceLine(plot, limit.value, `${limit.name} ${format(limit.value)}`, COLORS.ceiling));
  const curve = Array.from({ length: FIT_POINTS + 1 }, (_, i) => first + ((xMax - first) * i) / FIT_POINTS).map((x) => ({
    x,
    y: Math.max(0, evaluate(fit, x)),
  }));
  plot.add(
    `<path class="fit" d="${linePath(curve, plot)}" fill="none" stroke="${COLORS.band}" stroke-width="1.5" stroke-dasharray="4 3">${tooltip('the fit, carried forward')}</path>`,
  );
  plot.add(
    seriesPath(
      samples.map((s) => ({ x: s.step, y: s[metric] })),
      plot,
      seriesColor(0),
      `${TITLES[metric]} measured`,
    ),
  );
  for (const limit of shown) {
    const step = limit.step as number;
    const label = `${limit.name} ${format(limit.value)}: ${limit.observed ? 'hit at' : 'at'} ${unit} ${step}`;
    plot.add(dot(plot, { x: step, y: limit.value }, { className: 'limit-hit', color: COLORS.ceiling, label }));
  }
  const said = limits.map(
    (l) =>
      `${l.name} ${format(l.value)}: ${l.step === undefined ? 'not reached at this growth' : `${l.observed ? 'hit at' : 'at'} ${unit} ${formatCount(l.step)}`}`,
  );
  return { name, title, svg: plot.svg(), caption: `${said.join('; ')}.`, legend: [] };
}

export function renderForecastHtml(forecasts: readonly Forecast[]): string {
  const charts = forecasts.flatMap((forecast, index) => METRICS.map((metric) => metricChart(forecast, metric, index)));
  const runs = forecasts
    .map(
      (f) =>
        `<li>${escapeText(f.runId)} (${escapeText(f.workflowType)}${f.executions > 1 ? `, execution ${f.execution} of ${f.executions}` : ''}): ${formatCount(f.samples.length)} ${f.unit}s observed</li>`,
    )
    .join('\n');
  return `${pageHead('longrun forecast')}
<body>
<header><h1>longrun forecast</h1></header>
<section id="forecast-runs"><h2>Runs</h2><ul>
${runs}
</ul></section>
${chartsSection(charts)}
<footer>Largest payload and events are fitted with a line, history bytes with a parabola, per ${escapeText(forecasts[0]?.unit ?? 'turn')}.</footer>
</body>
</html>
`;
}
