import type { Summary } from '../../result/index.ts';
import { accumulatedBytesChart } from './accumulated-bytes-chart.ts';
import type { Chart } from './chart.ts';
import { compactionsChart } from './compactions-chart.ts';
import { latencyChart } from './latency-chart.ts';
import { requestBytesChart } from './request-bytes-chart.ts';

export { ACCUMULATED_BYTES_CHART, accumulatedBytesChart } from './accumulated-bytes-chart.ts';
export type { Chart } from './chart.ts';
export { COMPACTIONS_CHART, compactionsChart } from './compactions-chart.ts';
export { LATENCY_CHART, latencyChart } from './latency-chart.ts';
export { REQUEST_BYTES_CHART, requestBytesChart } from './request-bytes-chart.ts';
export { MAX_DRAWN_RUNS } from './series.ts';

/** The names of the report's charts, in page order (each is an `<svg data-chart="...">`). */
export const CHART_NAMES = ['request-bytes', 'accumulated-bytes', 'compactions', 'latency'] as const;

/** Every chart of the report, in page order. */
export function renderCharts(summary: Summary): Chart[] {
  return [requestBytesChart(summary), accumulatedBytesChart(summary), compactionsChart(summary), latencyChart(summary)];
}
