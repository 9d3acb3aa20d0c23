import { describe, expect, it } from 'vitest';
import { FIXTURE_LIMITS, fixtureRun, fixtureSummary, standardFixture } from '../../result/testing/index.ts';
import { findAll, parseXml, type XmlElement } from '../testing/index.ts';
import { MAX_COMPACTION_EVENTS } from './compactions-chart.ts';
import { CHART_NAMES, renderCharts } from './index.ts';
import { CHART_HEIGHT } from './plot.ts';
import { MAX_COMPACTION_MARKS } from './request-bytes-chart.ts';

function svgOf(name: string, charts = renderCharts(standardFixture())): XmlElement {
  const chart = charts.find((c) => c.name === name);
  if (!chart) throw new Error(`no chart ${name}`);
  return parseXml(`<?xml version="1.0" encoding="UTF-8"?>${chart.svg}`);
}

function withClass(root: XmlElement, element: string, className: string): XmlElement[] {
  return findAll(root, element).filter((e) => (e.attributes.class ?? '').split(' ').includes(className));
}

function ys(path: XmlElement): number[] {
  return [...(path.attributes.d ?? '').matchAll(/[ML][\d.-]+ ([\d.-]+)/g)].map((m) => Number(m[1]));
}

function referenceY(root: XmlElement, label: string): number {
  const group = findAll(root, 'g').find((g) => findAll(g, 'text')[0]?.text.includes(label));
  const line = group && findAll(group, 'line')[0];
  if (!line) throw new Error(`no reference line ${label}`);
  return Number(line.attributes.y1);
}

describe('the charts', () => {
  it('come in page order, each a well-formed SVG with its data-chart name', () => {
    const charts = renderCharts(standardFixture());
    expect(charts.map((c) => c.name)).toEqual([...CHART_NAMES]);
    for (const chart of charts) expect(svgOf(chart.name).attributes['data-chart']).toBe(chart.name);
  });

  it('request bytes: a line per run, a dot per compaction, and the v0 line above the blob limit', () => {
    const root = svgOf('request-bytes');
    const lines = withClass(root, 'path', 'series');
    expect(lines.map((l) => l.children[0]?.text)).toEqual(['v0-0001', 'current-0002', 'current-0001']);
    expect(withClass(root, 'circle', 'failed')).toHaveLength(1);
    expect(withClass(root, 'circle', 'ok')).toHaveLength(16);
    const ceiling = referenceY(root, 'blob limit 2 MiB');
    const trigger = referenceY(root, 'compaction trigger 1.2 MB');
    expect(trigger).toBeGreaterThan(ceiling);
    // SVG y grows downwards: above the line is a smaller y.
    expect(Math.min(...ys(lines[0] as XmlElement))).toBeLessThan(ceiling);
    expect(Math.min(...ys(lines[2] as XmlElement))).toBeGreaterThanOrEqual(trigger);
    expect(withClass(root, 'path', 'band')).toHaveLength(0);
  });

  it("request bytes: a scaled-down scenario's lines and trigger fill the axis, the far blob limit is left off and said so", () => {
    // The smoke's scale: requests of 60-130 kB around a 100 kB trigger, the real 2 MiB blob limit.
    const scaled = fixtureSummary([fixtureRun({ runId: 'small-0001', turns: 5, growthBytes: 500, compaction: 'none' })], {
      limits: { ...FIXTURE_LIMITS, compactionTriggerBytes: 100_000 },
    });
    const charts = renderCharts(scaled);
    const root = svgOf('request-bytes', charts);
    const trigger = referenceY(root, 'compaction trigger 100 kB');
    expect(trigger).toBeLessThan(CHART_HEIGHT / 2);
    const line = withClass(root, 'path', 'series')[0] as XmlElement;
    expect(Math.min(...ys(line))).toBeLessThan(CHART_HEIGHT / 2);
    expect(() => referenceY(root, 'blob limit')).toThrow('no reference line');
    expect(charts[0]?.caption).toContain("The blob limit (2 MiB) is far above this scenario's scaled-down requests and trigger");
    // At production scale the blob limit stays on the axis (the test above).
    expect(renderCharts(standardFixture())[0]?.caption).not.toContain('far above');
  });

  it('accumulated bytes: a line per execution and a diamond for the ContinueAsNew, under the budget', () => {
    const root = svgOf('accumulated-bytes');
    expect(withClass(root, 'path', 'series')).toHaveLength(4);
    const diamonds = withClass(root, 'path', 'continue-as-new');
    expect(diamonds).toHaveLength(1);
    expect(diamonds[0]?.children[0]?.text).toMatch(/^current-0001: ContinueAsNew after turn \d+ \(execution 1 to 2\)/);
    expect(referenceY(root, 'ContinueAsNew budget 128 MiB')).toBeGreaterThan(0);
  });

  it('compactions: green arrows for the ok ones and a red dot for the failed one', () => {
    const root = svgOf('compactions');
    expect(withClass(root, 'path', 'ok')).toHaveLength(16);
    const failed = withClass(root, 'circle', 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.children[0]?.text).toContain('current-0002 turn 28: failed: compaction model answered 500 <Internal> & gave up');
    const arrow = withClass(root, 'path', 'ok')[0] as XmlElement;
    const [before, after] = ys(arrow);
    expect(after).toBeGreaterThan(before ?? Infinity);
  });

  it('latency: three bars, p50 to p99, growing', () => {
    const bars = findAll(svgOf('latency'), 'rect');
    expect(bars.map((b) => b.children[0]?.text)).toEqual(['p50: 744 ms', 'p95: 1.16 s', 'p99: 4.4 s']);
    const heights = bars.map((b) => Number(b.attributes.height));
    expect(heights[0]).toBeLessThan(heights[1] ?? 0);
    expect(heights[1]).toBeLessThan(heights[2] ?? 0);
  });

  it('say "no data" and draw nothing when there is nothing to draw', () => {
    for (const chart of renderCharts(fixtureSummary([]))) {
      expect(chart.svg).toContain('data-empty="true"');
      expect(chart.svg).toContain('No data: ');
      expect(chart.svg).not.toMatch(/<(path|rect|circle)\b/);
    }
  });

  it('with hundreds of runs, draw 20 lines and a band, say so, and stay small', () => {
    const charts = renderCharts(standardFixture({ extraRuns: 300, extraRunTurns: 1500 }));
    const [requestBytes, accumulated, compactionsChart] = charts;
    const root = svgOf('request-bytes', charts);
    expect(withClass(root, 'path', 'series')).toHaveLength(20);
    expect(withClass(root, 'path', 'band')).toHaveLength(1);
    expect(requestBytes?.caption).toContain('Showing 20 of 303 runs');
    expect(requestBytes?.caption).toContain('thinned');
    expect(accumulated?.caption).toContain('Showing 20 of 303 runs');
    expect(withClass(root, 'circle', 'compaction')).toHaveLength(MAX_COMPACTION_MARKS);
    expect(withClass(root, 'circle', 'failed')).toHaveLength(1);
    const compactions = svgOf('compactions', charts);
    expect(withClass(compactions, 'path', 'ok')).toHaveLength(MAX_COMPACTION_EVENTS - 1);
    expect(withClass(compactions, 'circle', 'failed')).toHaveLength(1);
    expect(compactionsChart?.caption).toContain(`Showing ${MAX_COMPACTION_EVENTS} of them: failed ones first`);
    for (const chart of charts) expect(chart.svg.length).toBeLessThan(400_000);
  });
});
