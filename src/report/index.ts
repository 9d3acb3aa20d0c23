/**
 * The reports of a longrun invocation: a folder with summary.json, junit.xml and report.html.
 *   const dir = await writeReport(summary, { dir: reportDirFor(scenario.name, startedAt) });
 *   console.log(renderText(summary, dir));
 */
export {
  ACCUMULATED_BYTES_CHART,
  CHART_NAMES,
  type Chart,
  COMPACTIONS_CHART,
  LATENCY_CHART,
  MAX_DRAWN_RUNS,
  REQUEST_BYTES_CHART,
  renderCharts,
} from './charts/index.ts';
export { escapeAttribute, escapeText, visibleControls } from './escape.ts';
export { formatBytes, formatCount, formatDuration } from './format.ts';
export { renderHtml } from './html.ts';
export { EXPECTATIONS_CLASSNAME, INVOCATION_CLASSNAME, renderJunit } from './junit.ts';
export { reportDirFor, reportTimestamp, scenarioSlug } from './report-dir.ts';
export { isFailingRun } from './run-facts.ts';
export { MAX_TEXT_RUNS, type ProgressLine, renderProgress, renderText } from './text.ts';
export { type ReportFile, type WriteReportOptions, writeReport } from './write-report.ts';
