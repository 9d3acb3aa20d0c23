/** What the terminal shows: one screen after the run, one line of progress while it runs. */
import { join } from 'node:path';
import type { LoadMetrics, ProcessMetrics, RunRecord, Summary } from '../result/index.ts';
import { terminalText } from '../shared/visible-text.ts';
import { truncate } from './escape.ts';
import { formatBytes, formatCount, formatDuration, plural } from './format.ts';
import { failedResults, failingRunsFirst, isFailingRun } from './run-facts.ts';

/** Runs listed one per line at most; the rest are counted. */
export const MAX_TEXT_RUNS = 10;
/** Failing invariants shown (with their first evidence line) per run at most. */
const MAX_TEXT_FAILURES_PER_RUN = 3;
const LINE_MAX = 160;
/** A run's early-end line is cut by its maker (src/runner/early-end.ts); this only bounds a summary.json written otherwise. */
const EARLY_END_LINE_MAX = 1000;

/** Terminal-safe: escape sequences in evidence must not drive the terminal. */
function safe(text: string, max = LINE_MAX): string {
  return truncate(terminalText(text.replace(/[\r\n\t]+/g, ' ')), max);
}

function runLine(run: RunRecord, width: number): string {
  const failedCompactions = run.compactions.filter((c) => !c.ok).length;
  const facts = [
    plural(run.turns.length, 'turn'),
    plural(run.executions.length, 'execution'),
    ...(run.compactions.length > 0
      ? [`${plural(run.compactions.length, 'compaction')}${failedCompactions > 0 ? ` (${failedCompactions} failed)` : ''}`]
      : []),
    ...(run.incidents.length > 0 ? [`incidents: ${run.incidents.join(', ')}`] : []),
  ];
  return `  ${isFailingRun(run) ? 'FAIL' : 'pass'} ${safe(run.runId).padEnd(width)}  ${safe(run.binary)}, ${run.outcome}, ${facts.join(', ')}`;
}

function failureLines(run: RunRecord): string[] {
  const failed = failedResults(run);
  const lines = failed.slice(0, MAX_TEXT_FAILURES_PER_RUN).map((r) => `         ${safe(`${r.id}: ${r.evidence[0] ?? 'failed'}`)}`);
  if (failed.length > MAX_TEXT_FAILURES_PER_RUN)
    lines.push(`         ... and ${plural(failed.length - MAX_TEXT_FAILURES_PER_RUN, 'more failing invariant')}`);
  return lines;
}

function runsBlock(runs: readonly RunRecord[]): string[] {
  if (runs.length === 0) return ['runs: none judged'];
  const shown = failingRunsFirst(runs).slice(0, MAX_TEXT_RUNS);
  const width = Math.min(32, Math.max(...shown.map((run) => safe(run.runId).length)));
  const lines = ['runs:'];
  for (const run of shown) lines.push(runLine(run, width), ...failureLines(run));
  const rest = runs.filter((run) => !shown.includes(run));
  if (rest.length > 0) {
    const failing = rest.filter(isFailingRun).length;
    lines.push(
      `  ... and ${plural(rest.length, 'more run')} (${formatCount(failing)} failing, ${formatCount(rest.length - failing)} passing)`,
    );
  }
  return lines;
}

/** The verdict, each run's (or the failing ones'), violations with evidence, expectations, and where the report is. */
export function renderText(summary: Summary, reportDir?: string): string {
  const { totals } = summary;
  const verdict = summary.passed ? 'PASSED' : 'FAILED';
  const lines = [
    `longrun ${safe(summary.scenario)}: ${verdict}${summary.partial ? ' (partial: interrupted before it finished)' : ''}`,
    [
      plural(totals.runs, 'run'),
      plural(totals.turns, 'turn'),
      `${formatBytes(totals.requestBytes)} requested`,
      plural(totals.violations, 'violation'),
      `latency p50 ${formatDuration(totals.latency.p50)}, p95 ${formatDuration(totals.latency.p95)}, p99 ${formatDuration(totals.latency.p99)}`,
      `took ${formatDuration(summary.durationMs)}`,
      `seed ${summary.seed}`,
    ].join(' · '),
    ...earlyEndBlock(summary.runs),
    ...runsBlock(summary.runs),
    ...loadBlock(summary.load),
  ];
  if (summary.expectations.length > 0) {
    lines.push('expectations:');
    for (const e of summary.expectations) lines.push(`  ${e.met ? 'met  ' : 'UNMET'} ${safe(`${e.description}: ${e.detail}`)}`);
  }
  lines.push(...unexplainedBlock(summary));
  if (reportDir !== undefined) lines.push(`report: ${join(reportDir, 'report.html')} (summary.json, junit.xml beside it)`);
  return lines.join('\n');
}

/**
 * The runs that closed before their first model call, each in its one line (what it was started
 * with, what the scenario declares), before anything else: a workflow given arguments it does
 * not take explains every other line of the screen.
 */
function earlyEndBlock(runs: readonly RunRecord[]): string[] {
  const lines = runs.flatMap((run) => (run.earlyEnd ? [safe(run.earlyEnd, EARLY_END_LINE_MAX)] : []));
  if (lines.length <= MAX_TEXT_RUNS) return lines;
  return [...lines.slice(0, MAX_TEXT_RUNS), `... and ${plural(lines.length - MAX_TEXT_RUNS, 'more run')} like these (all in summary.json)`];
}

/** Runs no expectation accounts for, each with its first evidence line: never hidden behind a met expectation. */
function unexplainedBlock(summary: Summary): string[] {
  const unexplained = summary.unexplained ?? [];
  if (unexplained.length === 0) return [];
  const lines = ['runs no expectation accounts for (the scenario cannot pass):'];
  for (const { runId, binary, why } of unexplained.slice(0, MAX_TEXT_RUNS)) lines.push(`  ${safe(`${runId} (${binary}): ${why}`)}`);
  if (unexplained.length > MAX_TEXT_RUNS)
    lines.push(`  ... and ${plural(unexplained.length - MAX_TEXT_RUNS, 'more run')} (all in summary.json)`);
  return lines;
}

/**
 * RSS per hour is a slope: over seconds of samples, one garbage collection reads as gigabytes an
 * hour (a 7 s smoke once printed 45058.8 MiB/h). Below this span it is left out.
 */
export const MIN_RSS_GROWTH_SPAN_MS = 5 * 60_000;

/** `memory`: what rssBytes holds; the database's is its processes' PSS summed (process-tree-usage.ts). */
function processLine(name: string, metrics: ProcessMetrics | undefined, memory: 'RSS' | 'PSS' = 'RSS'): string[] {
  if (!metrics) return [];
  const meaningful = metrics.rssGrowthMbPerHour !== undefined && (metrics.rssGrowthSpanMs ?? 0) >= MIN_RSS_GROWTH_SPAN_MS;
  const growth = meaningful ? `, growth ${metrics.rssGrowthMbPerHour?.toFixed(1)} MiB/h` : '';
  const cpu = metrics.cpuPercent ? `, CPU ${Math.round(metrics.cpuPercent.mean)}% of a core` : '';
  return [
    `  ${name}: ${memory} ${formatBytes(metrics.rssBytes.first)} -> ${formatBytes(metrics.rssBytes.last)} (max ${formatBytes(metrics.rssBytes.max)})${growth}${cpu}`,
  ];
}

function loadBlock(load: LoadMetrics | undefined): string[] {
  if (!load) return [];
  const { overall } = load;
  return [
    `load: ${overall.turnsPerSecond.toFixed(2)} turns/s, ${overall.runsPerSecond.toFixed(3)} runs/s, history ${formatBytes(overall.historyBytesPerSecond)}/s`,
    ...processLine('worker', load.worker),
    ...processLine('server', load.server),
    // The server run as one process per service: `server` is their sum, each service beneath it.
    ...Object.entries(load.services ?? {}).flatMap(([service, metrics]) => processLine(`  ${service}`, metrics)),
    ...processLine('database', load.database, 'PSS'),
    ...(load.store ? [`  store: ${plural(load.store.objects, 'object')}, ${formatBytes(load.store.bytes)} (External Storage)`] : []),
  ];
}

export interface ProgressLine {
  runsDone: number;
  /** Runs started so far; with `runsDone` it says how many are in flight. */
  runsStarted?: number;
  /** Of the runs started and not done, those that have ended and are being judged. */
  runsJudging?: number;
  /** Unknown for a soak (runs keep starting until its duration is over). */
  runsTotal?: number;
  turns: number;
  bytes: number;
  violations: number;
  elapsedMs: number;
}

function checked(progress: ProgressLine, field: keyof ProgressLine): number | undefined {
  const value = progress[field];
  if (value === undefined && (field === 'runsStarted' || field === 'runsTotal' || field === 'runsJudging')) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new Error(`renderProgress: ${field} must be a non-negative number, got ${String(value)}`);
  }
  return value;
}

/** One line of progress (no newline): runs 12/100 (3 in flight, 1 being judged) · 3,456 turns · 1.23 GB · 0 violations · 1 min 02 s. */
export function renderProgress(progress: ProgressLine): string {
  const [runsDone = 0, runsStarted, runsTotal, runsJudging = 0, turns = 0, bytes = 0, violations = 0, elapsedMs = 0] = (
    ['runsDone', 'runsStarted', 'runsTotal', 'runsJudging', 'turns', 'bytes', 'violations', 'elapsedMs'] as const
  ).map((field) => checked(progress, field));
  const runs = runsTotal === undefined ? `runs ${formatCount(runsDone)} done` : `runs ${formatCount(runsDone)}/${formatCount(runsTotal)}`;
  const running = runsStarted === undefined ? 0 : Math.max(0, runsStarted - runsDone - runsJudging);
  const parts = [
    ...(running > 0 ? [`${formatCount(running)} in flight`] : []),
    ...(runsJudging > 0 ? [`${formatCount(runsJudging)} being judged`] : []),
  ];
  const inFlight = runsStarted !== undefined && parts.length > 0 ? ` (${parts.join(', ')})` : '';
  return [`${runs}${inFlight}`, plural(turns, 'turn'), formatBytes(bytes), plural(violations, 'violation'), formatDuration(elapsedMs)].join(
    ' · ',
  );
}
