import { describe, expect, it } from 'vitest';
import { fixtureRun, fixtureSummary, standardFixture } from '../result/testing/index.ts';
import { CHART_NAMES } from './charts/index.ts';
import { renderHtml } from './html.ts';
import { MAX_FAILURE_DETAILS } from './html-sections.ts';

function count(html: string, pattern: RegExp): number {
  return [...html.matchAll(pattern)].length;
}

describe('renderHtml', () => {
  const summary = standardFixture();
  const html = renderHtml(summary);

  it('is one self-contained page: inline style and script, nothing to fetch', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;');
    expect(html).not.toMatch(/<link\b|\bsrc=|url\(|@import/i);
    // The only absolute URL is the SVG namespace, which is a name, not a fetch.
    expect([...new Set(html.match(/https?:\/\/[^"'\s)]+/g))]).toEqual(['http://www.w3.org/2000/svg']);
  });

  it('has every chart, each drawn', () => {
    for (const name of CHART_NAMES) {
      const svg = html.match(new RegExp(`<svg data-chart="${name}"[\\s\\S]*?</svg>`))?.[0] ?? '';
      expect(svg, name).not.toBe('');
      expect(svg, name).toMatch(/<(path|rect|circle)\b/);
    }
  });

  it('names the history limits the runs were judged against, the count limit when the summary has it', () => {
    expect(html).toContain('<dt>history size limit</dt><dd>500 MiB</dd>');
    expect(html).toContain('<dt>history count limit</dt><dd>51,200 events</dd>');
    const { historyCountLimit, ...older } = summary.limits;
    expect(renderHtml({ ...summary, limits: older })).not.toContain('history count limit');
  });

  it('shows the verdict and the partial banner', () => {
    expect(html).toContain('<span class="verdict failed" id="verdict">FAILED</span>');
    expect(html).toContain('<div class="banner" id="partial" role="alert"><strong>Partial report.</strong>');
    expect(renderHtml(standardFixture({ partial: false }))).not.toContain('id="partial"');
  });

  it('shows failing invariants with their evidence escaped', () => {
    expect(count(html, /<article class="failure"/g)).toBe(2);
    expect(html).toContain(
      '<li>event 57 ActivityTaskScheduled call_model input &lt;messages&gt; is 2,203,001 bytes &gt;= "blob limit" &amp; \'2 MiB\'\\u0007</li>',
    );
    expect(html).not.toContain('\u0007');
  });

  it('lists every run, failing ones first, with links to the histories of failing runs only', () => {
    const rows = html.match(/<tr data-failing="(true|false)"/g) ?? [];
    expect(rows).toEqual(['<tr data-failing="true"', '<tr data-failing="false"', '<tr data-failing="false"']);
    // In the runs table and beside each of its two failing invariants.
    expect(count(html, /<a href="histories\/v0-0001\/1\.json">execution 1<\/a>/g)).toBe(3);
    expect(html).not.toContain('href="histories/current-0001');
  });

  it('shows each expectation as met or unmet', () => {
    expect(html).toContain('<td class="met">met</td><td>all invariants hold on current</td>');
    expect(html).toContain(
      '<td class="unmet">unmet</td><td>tmprl1103 does not reproduce on v0</td><td>v0-0001: payload.ceiling failed &lt;event 57&gt;',
    );
  });

  it('says "no data" for every chart of an empty summary', () => {
    const empty = renderHtml(fixtureSummary([]));
    expect(count(empty, /data-empty="true"/g)).toBe(CHART_NAMES.length);
    expect(empty).toContain('No data: no turn was recorded');
    expect(empty).toContain('No run was judged.');
    expect(empty).toContain('The scenario states no expectation.');
  });

  it('stays small with hundreds of long runs, and says what it left out', () => {
    const big = renderHtml(standardFixture({ extraRuns: 300, extraRunTurns: 1000 }));
    expect(big.length).toBeLessThan(2_000_000);
    expect(big).toContain('Showing 20 of 303 runs');
    expect(count(big, /<tr data-failing=/g)).toBe(303);
  });

  it('caps the evidence of many failures', () => {
    const failing = Array.from({ length: MAX_FAILURE_DETAILS + 5 }, (_, i) =>
      fixtureRun({
        runId: `bad-${i}`,
        turns: 3,
        growthBytes: 1000,
        compaction: 'none',
        failures: { 'journal.chain': [`gap at event ${i}`] },
      }),
    );
    const capped = renderHtml(fixtureSummary(failing));
    expect(count(capped, /<article class="failure"/g)).toBe(MAX_FAILURE_DETAILS);
    expect(capped).toContain(`Showing ${MAX_FAILURE_DETAILS} of 105 failing checks`);
  });

  it('is deterministic', () => {
    expect(renderHtml(standardFixture())).toBe(html);
  });
});

describe('renderHtml with runs no expectation accounts for', () => {
  it('has a section listing each with its first evidence line and its histories, escaped', () => {
    const run = fixtureRun({ runId: 'long-run-0007', binary: 'v0', turns: 12, growthBytes: 10_000, compaction: 'none', outcome: 'failed' });
    const summary = fixtureSummary([run], {
      unexplained: [{ runId: run.runId, binary: 'v0', why: 'ended failed: <UnicodeEncodeError> & more' }],
    });
    const html = renderHtml(summary);
    const section = html.match(/<section id="unexplained">[\s\S]*?<\/section>/)?.[0] ?? '';
    expect(section).toContain('<tr class="failing" data-run="long-run-0007"><td><code>long-run-0007</code></td><td>v0</td>');
    expect(section).toContain('ended failed: &lt;UnicodeEncodeError&gt; &amp; more');
    expect(section).toContain('execution 1</a>');
    expect(html.indexOf('id="expectations"')).toBeLessThan(html.indexOf('id="unexplained"'));
    expect(renderHtml(fixtureSummary([run]))).not.toContain('id="unexplained"');
  });
});

describe('renderHtml with runs that closed before their first model call', () => {
  it('has their lines at the top, escaped, before the totals', () => {
    const run = {
      ...fixtureRun({ runId: 'py-run-0000', binary: 'v0', turns: 1, growthBytes: 1_000, compaction: 'none', outcome: 'failed' }),
      earlyEnd:
        'run py-run-0000: ToolsWorkflow failed before its first model call: <TypeError> & more; it was started with ["{{runInput}}"]',
    };
    const html = renderHtml(fixtureSummary([run]));
    const section = html.match(/<section id="early-ends" role="alert">[\s\S]*?<\/section>/)?.[0] ?? '';
    expect(section).toContain('<li>run py-run-0000: ToolsWorkflow failed before its first model call: &lt;TypeError&gt; &amp; more;');
    expect(html.indexOf('id="early-ends"')).toBeLessThan(html.indexOf('class="totals"'));
    expect(renderHtml(fixtureSummary([{ ...run, earlyEnd: undefined }]))).not.toContain('id="early-ends"');
  });
});
