/**
 * `longrun forecast`: from the histories of real runs (any workflow), the step at which each of
 * Temporal's limits would be hit: the blob limit by the largest payload, the history size's
 * suggest-ContinueAsNew, warn and error, and the event count's.
 */
import { buildRunView, type Forecast, forecastLimits, forecastRun, HistoryLoadError, METRICS, type Metric } from '../../checks/index.ts';
import { renderForecastHtml } from '../../report/forecast-html.ts';
import { atomicWriteFile } from '../../shared/atomic-write.ts';
import { terminalText } from '../../shared/visible-text.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT } from '../exit-code.ts';
import { booleanFlag, defineCommand, valueFlag } from '../flags.ts';
import { loadRuns, MAPPING_FLAG, mappingFile, type Unjudged } from './check.ts';
import { historyFileGroups } from './history-files.ts';
import { SERVER_LIMIT_FLAGS, serverLimitsLine, serverLimitsOf } from './server-limit-flags.ts';

const FLAGS = {
  ...SERVER_LIMIT_FLAGS,
  mapping: MAPPING_FLAG,
  json: booleanFlag('print the forecasts as JSON'),
  html: valueFlag({ value: 'FILE', help: 'also write the forecasts as an HTML page of charts' }),
};

const LABELS: Record<Metric, string> = { largestPayload: 'largest payload', historyBytes: 'history bytes', events: 'events' };

function amount(metric: Metric, n: number): string {
  const rounded = Math.round(n).toLocaleString('en-US');
  return metric === 'events' ? rounded : `${rounded} bytes`;
}

export function printForecast(forecast: Forecast): void {
  const unit = forecast.unit;
  const of = forecast.executions > 1 ? `, execution ${forecast.execution} of ${forecast.executions}` : '';
  const units = unit === 'activity' ? 'activities' : `${unit}s`;
  console.log(
    `${terminalText(forecast.runId)} (${terminalText(forecast.workflowType)}${of}): ${forecast.samples.length} ${units} observed`,
  );
  for (const metric of METRICS) {
    const { now, perStep, limits } = forecast.metrics[metric];
    const at = limits.map(({ name, value, step, observed }) => {
      const where = step === undefined ? 'not reached at this growth' : `${observed ? 'hit at' : 'at'} ${unit} ${step}`;
      return `${name} ${amount(metric, value)}: ${where}`;
    });
    console.log(
      `  ${LABELS[metric]}: ${amount(metric, now)} now, ${perStep >= 0 ? '+' : ''}${amount(metric, perStep)} per ${unit}; ${at.join('; ')}`,
    );
  }
}

export const forecastCommand = defineCommand({
  ...COMMAND_LINES.forecast,
  flags: FLAGS,
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'history files' },
  notes: `Reads histories as \`check\` does (any SDK, folders and their subfolders, grouped into runs) and fits, per turn of our kernel or
per activity of another workflow (a mapping names another kernel's model activity: its calls are
the turns), the largest payload (a line), the history bytes (a parabola)
and the event count (a line) of each run's last execution. Limits, the same as check's (the
same flags and defaults, its first line; --json: limits): blob 2 MiB; history size 4 MiB
(suggest ContinueAsNew), 10 MiB (warn), 500 MiB (error: the deployment's, Temporal's own is
50 MiB); events 4,096, 10,240, 51,200.`,
  async run({ values, positionals }) {
    const mapping = mappingFile(values.mapping);
    const server = serverLimitsOf(values, mapping);
    const limits = forecastLimits(server);
    const read = await loadRuns(historyFileGroups(positionals), mapping);
    const forecasts: Forecast[] = [];
    const unjudged: Unjudged[] = [...read.unjudged];
    for (const run of read.runs) {
      try {
        forecasts.push(forecastRun(buildRunView(run), limits));
      } catch (error) {
        if (!(error instanceof HistoryLoadError)) throw error;
        unjudged.push({ sources: run.map((h) => h.source), problem: error.message });
      }
    }
    if (values.html && forecasts.length > 0) await atomicWriteFile(values.html, renderForecastHtml(forecasts));
    if (values.json) console.log(JSON.stringify({ limits: server, forecasts, unjudged }, null, 2));
    else if (forecasts.length > 0) {
      console.log(serverLimitsLine(server));
      for (const forecast of forecasts) printForecast(forecast);
    }
    for (const { problem } of unjudged) console.error(`not forecast: ${terminalText(problem)}`);
    return forecasts.length === 0 ? EXIT.harness : EXIT.passed;
  },
});
