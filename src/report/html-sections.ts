/** The sections of report.html, each a pure function of the summary returning markup. */
import { HISTORY_INVARIANT_IDS, type InvariantId, type InvariantStatus } from '../checks/index.ts';
import type { RunRecord, Summary } from '../result/index.ts';
import type { Chart } from './charts/index.ts';
import { escapeAttribute, escapeText, relativeHref, truncate } from './escape.ts';
import { formatBytes, formatCount, formatDuration, plural } from './format.ts';
import { endedBadly, failedResults, failingRunsFirst, isFailingRun, largestHistoryBytes, peakRequestBytes } from './run-facts.ts';

/** Rows of the runs table at most (failing runs first). */
export const MAX_RUN_ROWS = 1000;
/** Failing (run, invariant) pairs shown with their evidence at most. */
export const MAX_FAILURE_DETAILS = 100;
/** Characters of one evidence line at most. */
export const MAX_EVIDENCE_CHARS = 2000;

function cell(content: string, className?: string): string {
  return className ? `<td class="${className}">${content}</td>` : `<td>${content}</td>`;
}

function numberCell(text: string): string {
  return cell(escapeText(text), 'number');
}

export function headerSection(summary: Summary): string {
  const verdict = summary.passed ? 'passed' : 'failed';
  const facts = [
    `seed ${summary.seed}`,
    `started ${summary.startedAt}`,
    `took ${formatDuration(summary.durationMs)}`,
    summary.environment,
    ...(summary.scenarioFile === undefined ? [] : [`scenario file ${summary.scenarioFile}`]),
  ];
  return `<header>
<h1>longrun <code>${escapeText(summary.scenario)}</code> <span class="verdict ${verdict}" id="verdict">${verdict.toUpperCase()}</span></h1>
<p class="facts">${facts.map(escapeText).join(' · ')}</p>
</header>`;
}

export function partialBanner(summary: Summary): string {
  if (!summary.partial) return '';
  return `<div class="banner" id="partial" role="alert"><strong>Partial report.</strong> longrun was interrupted (Ctrl-C, SIGTERM or its time budget) at ${escapeText(summary.finishedAt)}; it covers the ${plural(summary.runs.length, 'run')} judged by then, so it cannot pass.</div>`;
}

export function totalsSection(summary: Summary): string {
  const { totals, limits } = summary;
  const items: [string, string][] = [
    ['runs', formatCount(totals.runs)],
    ['turns', formatCount(totals.turns)],
    ['request bytes', formatBytes(totals.requestBytes)],
    ['violations', formatCount(totals.violations)],
    ['turn latency p50 / p95 / p99', [totals.latency.p50, totals.latency.p95, totals.latency.p99].map(formatDuration).join(' / ')],
    ['compaction trigger', formatBytes(limits.compactionTriggerBytes)],
    ['blob limit', formatBytes(limits.blobLimitBytes)],
    ['ContinueAsNew budget', formatBytes(limits.continueAsNewBytes)],
    ['history size limit', formatBytes(limits.historySizeLimitBytes)],
    ...(limits.historyCountLimit ? [['history count limit', `${formatCount(limits.historyCountLimit)} events`] as [string, string]] : []),
  ];
  return `<dl class="totals">${items.map(([term, value]) => `<div><dt>${escapeText(term)}</dt><dd>${escapeText(value)}</dd></div>`).join('')}</dl>`;
}

export function expectationsSection(summary: Summary): string {
  if (summary.expectations.length === 0) {
    return '<section id="expectations"><h2>Expectations</h2><p class="note">The scenario states no expectation.</p></section>';
  }
  const rows = summary.expectations.map(
    (e) =>
      `<tr>${cell(e.met ? 'met' : 'unmet', e.met ? 'met' : 'unmet')}${cell(escapeText(e.description))}${cell(escapeText(e.detail))}</tr>`,
  );
  return `<section id="expectations"><h2>Expectations</h2>
<table><thead><tr><th>verdict</th><th>expectation</th><th>detail</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></section>`;
}

/** The runs that closed before their first model call, each in its one line: at the top, as it explains the rest. */
export function earlyEndSection(summary: Summary): string {
  const lines = summary.runs.flatMap((run) => (run.earlyEnd ? [run.earlyEnd] : []));
  if (lines.length === 0) return '';
  const shown = lines.slice(0, MAX_FAILURE_DETAILS);
  const more =
    lines.length > shown.length
      ? `<p class="note">Showing ${formatCount(shown.length)} of ${formatCount(lines.length)}; all of them are in summary.json.</p>`
      : '';
  return `<section id="early-ends" role="alert"><h2>Runs that ended before they were driven</h2>
<p class="note">A run that closed before its first model call says what its workflow was started with and what the scenario declares (<code>target.external.args</code>): a workflow that ends at once most likely does not take those arguments. A chat agent's run whose conversation stopped short says which message and why (<code>target.external.conversation</code>).</p>
<ul class="evidence">${shown.map((line) => `<li>${escapeText(truncate(line, MAX_EVIDENCE_CHARS))}</li>`).join('')}</ul>
${more}</section>`;
}

/** The runs that went wrong in a way no expectation accounts for: each with its first evidence line. */
export function unexplainedSection(summary: Summary): string {
  const unexplained = summary.unexplained ?? [];
  if (unexplained.length === 0) return '';
  const byId = new Map(summary.runs.map((run) => [run.runId, run]));
  const shown = unexplained.slice(0, MAX_FAILURE_DETAILS);
  const rows = shown.map(({ runId, binary, why }) => {
    const run = byId.get(runId);
    return `<tr class="failing" data-run="${escapeAttribute(runId)}">${cell(`<code>${escapeText(runId)}</code>`)}${cell(escapeText(binary))}${cell(escapeText(truncate(why, MAX_EVIDENCE_CHARS)))}${cell(run ? historyLinks(run) : '<span class="na">not saved</span>')}</tr>`;
  });
  const more =
    unexplained.length > shown.length
      ? `<p class="note">Showing ${formatCount(shown.length)} of ${formatCount(unexplained.length)}; all of them are in summary.json and junit.xml.</p>`
      : '';
  return `<section id="unexplained"><h2>Runs no expectation accounts for</h2>
<p class="note">These runs failed, were stopped, violated an invariant or could not be replayed, and no expectation judges or explains it: the scenario cannot pass while one is here.</p>
<table><thead><tr><th>run</th><th>binary</th><th>first evidence</th><th>histories</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
${more}</section>`;
}

/** Invariant ids in the canonical order, then any others the runs hold (the replay harness's). */
function invariantIds(runs: readonly RunRecord[]): InvariantId[] {
  const seen = new Set<InvariantId>(runs.flatMap((run) => run.invariants.map((r) => r.id)));
  const ordered: InvariantId[] = HISTORY_INVARIANT_IDS.filter((id) => seen.has(id));
  return [...ordered, ...[...seen].filter((id) => !ordered.includes(id))];
}

export function invariantsSection(summary: Summary): string {
  const ids = invariantIds(summary.runs);
  if (ids.length === 0) return '';
  const count = (id: InvariantId, status: InvariantStatus) =>
    summary.runs.filter((run) => run.invariants.some((r) => r.id === id && r.status === status)).length;
  const rows = ids.map((id) => {
    const fail = count(id, 'fail');
    return `<tr${fail > 0 ? ' class="failing"' : ''}>${cell(`<code>${escapeText(id)}</code>`)}${numberCell(formatCount(count(id, 'pass')))}${cell(formatCount(fail), fail > 0 ? 'number fail' : 'number')}${numberCell(formatCount(count(id, 'not-applicable')))}</tr>`;
  });
  return `<section id="invariants"><h2>Invariants</h2>
<table><thead><tr><th>invariant</th><th class="number">pass</th><th class="number">fail</th><th class="number">not applicable</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></section>`;
}

function historyLinks(run: RunRecord): string {
  if (run.historyFiles.length === 0) return '<span class="na">not saved</span>';
  return run.historyFiles.map((file, index) => `<a href="${escapeAttribute(relativeHref(file))}">execution ${index + 1}</a>`).join(', ');
}

export function failuresSection(summary: Summary): string {
  const pairs = failingRunsFirst(summary.runs).flatMap((run) => failedResults(run).map((result) => ({ run, result })));
  if (pairs.length === 0)
    return '<section id="failures"><h2>Failing invariants</h2><p class="note">None: every invariant held or did not apply.</p></section>';
  const shown = pairs.slice(0, MAX_FAILURE_DETAILS);
  const articles = shown.map(
    ({ run, result }) => `<article class="failure" data-run="${escapeAttribute(run.runId)}" data-invariant="${escapeAttribute(result.id)}">
<h3><code>${escapeText(run.runId)}</code> · <code>${escapeText(result.id)}</code> <span class="na">(${escapeText(run.binary)}, ${escapeText(run.outcome)}; histories: ${historyLinks(run)})</span></h3>
<ol class="evidence">${result.evidence.map((line) => `<li>${escapeText(truncate(line, MAX_EVIDENCE_CHARS))}</li>`).join('')}</ol>
</article>`,
  );
  const more =
    pairs.length > shown.length
      ? `<p class="note">Showing ${formatCount(shown.length)} of ${formatCount(pairs.length)} failing checks; all of them are in summary.json and junit.xml.</p>`
      : '';
  return `<section id="failures"><h2>Failing invariants</h2>
${articles.join('\n')}
${more}</section>`;
}

function runRow(run: RunRecord): string {
  const failing = isFailingRun(run);
  const failed = failedResults(run).map((r) => `<code>${escapeText(r.id)}</code>`);
  const compactionsFailed = run.compactions.filter((c) => !c.ok).length;
  const outcomeClass = endedBadly(run) ? 'fail' : '';
  return `<tr data-failing="${failing}"${failing ? ' class="failing"' : ''}>${[
    cell(`<code>${escapeText(run.runId)}</code>`),
    cell(escapeText(run.binary)),
    cell(escapeText(run.outcome), outcomeClass || undefined),
    numberCell(formatCount(run.turns.length)),
    numberCell(formatCount(run.executions.length)),
    cell(
      `${formatCount(run.compactions.length - compactionsFailed)} ok${compactionsFailed > 0 ? `, <span class="fail">${formatCount(compactionsFailed)} failed</span>` : ''}`,
      'number',
    ),
    numberCell(formatBytes(peakRequestBytes(run))),
    numberCell(formatBytes(largestHistoryBytes(run))),
    numberCell(formatCount(run.workflowTaskFailures)),
    cell(escapeText(run.incidents.join(', '))),
    cell(failed.length > 0 ? failed.join(' ') : '<span class="pass">none</span>'),
    cell(failing ? historyLinks(run) : ''),
  ].join('')}</tr>`;
}

export function runsSection(summary: Summary): string {
  if (summary.runs.length === 0) return '<section id="runs"><h2>Runs</h2><p class="note">No run was judged.</p></section>';
  const ordered = failingRunsFirst(summary.runs);
  const shown = ordered.slice(0, MAX_RUN_ROWS);
  const failing = ordered.filter(isFailingRun).length;
  const more =
    ordered.length > shown.length
      ? `<p class="note">Showing ${formatCount(shown.length)} of ${plural(ordered.length, 'run')} (failing runs first); all of them are in summary.json.</p>`
      : '';
  return `<section id="runs"><h2>Runs</h2>
<p class="note">${plural(summary.runs.length, 'run')}, ${formatCount(failing)} failing (an invariant failed, or the run failed, was terminated or timed out). <label class="filter"><input type="checkbox" id="only-failing"> only failing runs</label></p>
<table id="runs-table"><thead><tr><th>run</th><th>binary</th><th>outcome</th><th class="number">turns</th><th class="number">executions</th><th class="number">compactions</th><th class="number">peak request</th><th class="number">largest history</th><th class="number">task failures</th><th>incidents</th><th>violations</th><th>histories</th></tr></thead><tbody>
${shown.map(runRow).join('\n')}
</tbody></table>
${more}</section>`;
}

function figure(chart: Chart): string {
  const legend =
    chart.legend.length > 0
      ? `<ul class="legend">${chart.legend.map((entry) => `<li><span style="background:${escapeAttribute(entry.color)}"></span>${escapeText(entry.label)}</li>`).join('')}</ul>`
      : '';
  return `<figure id="chart-${escapeAttribute(chart.name)}">
<h3>${escapeText(chart.title)}</h3>
${chart.svg}
${legend}${chart.caption ? `<figcaption>${escapeText(chart.caption)}</figcaption>` : ''}
</figure>`;
}

export function chartsSection(charts: readonly Chart[]): string {
  return `<section id="charts"><h2>Charts</h2>
${charts.map(figure).join('\n')}
</section>`;
}
