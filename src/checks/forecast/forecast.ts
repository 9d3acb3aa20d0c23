/**
 * `longrun forecast`: from a run's history, the growth per step (a turn of the kernel, or an
 * activity of any other workflow) of its largest payload, its history bytes and its event count,
 * fitted and carried forward to the step at which each of Temporal's limits would be hit. The
 * last execution is forecast: a ContinueAsNew starts a history afresh.
 */
import type { Execution, RunView } from '../run/run-view.ts';
import { SERVER_LIMITS, type ServerLimits } from '../server-limits.ts';
import { evaluate, firstStepReaching, fitPolynomial, type Polynomial } from './fit.ts';

const MiB = 1024 * 1024;

/** Temporal's defaults below the error limits (`limit.history*.suggestContinueAsNew`, `.warn`), which the deployment keeps. */
const HISTORY_BYTES_BELOW = [
  { name: 'suggest ContinueAsNew', value: 4 * MiB },
  { name: 'warn', value: 10 * MiB },
];
const EVENTS_BELOW = [
  { name: 'suggest ContinueAsNew', value: 4_096 },
  { name: 'warn', value: 10_240 },
];

export const METRICS = ['largestPayload', 'historyBytes', 'events'] as const;
export type Metric = (typeof METRICS)[number];
export type ForecastLimits = { [M in Metric]: readonly { name: string; value: number }[] };

/** What each metric is forecast to: the error limits, and the thresholds under them (one at or over its error is never reached first). */
export function forecastLimits(server: ServerLimits): ForecastLimits {
  const under = (thresholds: typeof HISTORY_BYTES_BELOW, error: number) => [
    ...thresholds.filter(({ value }) => value < error),
    { name: 'error', value: error },
  ];
  return {
    largestPayload: [{ name: 'blob limit', value: server.blobLimitBytes }],
    historyBytes: under(HISTORY_BYTES_BELOW, server.historySizeLimitBytes),
    events: under(EVENTS_BELOW, server.historyCountLimit),
  };
}

export const FORECAST_LIMITS: ForecastLimits = forecastLimits(SERVER_LIMITS);

/** A history as it stood at the end of one step. */
export interface Sample {
  /** The turn number (the kernel's), or the activity's position in the execution. */
  step: number;
  /** The largest payload written during the step. */
  largestPayload: number;
  /** The history's bytes: its payloads, or the server's count when larger. */
  historyBytes: number;
  events: number;
}

export interface LimitForecast {
  name: string;
  value: number;
  /** The step at which the limit is (or was) hit; undefined when the fit never reaches it. */
  step?: number;
  /** Hit by a step the history holds, not predicted. */
  observed: boolean;
}

export interface MetricForecast {
  /** The value at the last step. */
  now: number;
  /** Growth per step at the last step, by the fit. */
  perStep: number;
  /** A line (payloads, events) or a parabola (history bytes: each turn's request carries the dialog so far). */
  fit: Polynomial;
  limits: LimitForecast[];
}

export interface Forecast {
  runId: string;
  workflowType: string;
  /** Turns of an agent (its model calls, as the mapping names them), activities of another workflow. */
  unit: 'turn' | 'activity';
  /** The execution forecast (the last) and how many the run has. */
  execution: number;
  executions: number;
  samples: Sample[];
  metrics: Record<Metric, MetricForecast>;
}

const DEGREE: Record<Metric, 1 | 2> = { largestPayload: 1, historyBytes: 2, events: 1 };

/** Where each step starts: an agent's turns (their first model call, whatever its input), else every activity. */
function stepStarts(execution: Execution): { id: number; step: number }[] {
  if (execution.turns.length > 0) {
    return execution.turns.map((turn, i) => ({ id: turn.calls[0]?.scheduled.id ?? 0, step: turn.number ?? i + 1 }));
  }
  return execution.activities.map((activity, i) => ({ id: activity.scheduled.id, step: i + 1 }));
}

export function samplesOf(execution: Execution): Sample[] {
  const starts = stepStarts(execution);
  const samples: Sample[] = [];
  let next = 0;
  let payloads = 0;
  let counted = 0;
  for (const event of execution.history.events) {
    if (next < starts.length && event.id === starts[next]?.id) {
      samples.push({ step: starts[next]?.step ?? 0, largestPayload: 0, historyBytes: 0, events: 0 });
      next++;
    }
    for (const field of event.payloads) payloads += field.bytes;
    if (event.attrs.kind === 'workflow-task') counted = Math.max(counted, event.attrs.historySizeBytes ?? 0);
    const current = samples.at(-1);
    if (!current) continue;
    for (const field of event.payloads) current.largestPayload = Math.max(current.largestPayload, field.bytes);
    current.historyBytes = Math.max(payloads, counted);
    current.events = event.id;
  }
  return samples;
}

function forecastMetric(samples: readonly Sample[], metric: Metric, limits: ForecastLimits): MetricForecast {
  const xs = samples.map((s) => s.step);
  const ys = samples.map((s) => s[metric]);
  const fit = fitPolynomial(xs, ys, DEGREE[metric]);
  const last = samples.at(-1);
  const lastStep = last?.step ?? 0;
  return {
    now: last?.[metric] ?? 0,
    perStep: evaluate(fit, lastStep + 1) - evaluate(fit, lastStep),
    fit,
    limits: limits[metric].map(({ name, value }) => {
      const hit = samples.find((s) => s[metric] >= value);
      if (hit) return { name, value, step: hit.step, observed: true };
      const step = samples.length >= 2 ? firstStepReaching(fit, value, lastStep) : undefined;
      return { name, value, ...(step === undefined ? {} : { step }), observed: false };
    }),
  };
}

export function forecastRun(run: RunView, limits: ForecastLimits = FORECAST_LIMITS): Forecast {
  const execution = run.executions.at(-1) as Execution;
  const samples = samplesOf(execution);
  const start = execution.history.events[0]?.attrs;
  return {
    runId: run.input.runId,
    workflowType: start?.kind === 'workflow-started' ? start.workflowType : '',
    unit: execution.turns.length > 0 ? 'turn' : 'activity',
    execution: execution.number,
    executions: run.executions.length,
    samples,
    metrics: Object.fromEntries(METRICS.map((metric) => [metric, forecastMetric(samples, metric, limits)])) as Record<
      Metric,
      MetricForecast
    >,
  };
}
