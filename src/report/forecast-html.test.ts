import { describe, expect, it } from 'vitest';
import { buildRunView, FORECAST_LIMITS, forecastRun } from '../checks/index.ts';
import { AgentRunHistory } from '../checks/testing/agent-run-history.ts';
import { renderForecastHtml } from './forecast-html.ts';
import { findAll, parseXml } from './testing/index.ts';

describe('forecast.html', () => {
  const run = new AgentRunHistory({ runId: 'run-growing', limits: { compactionTriggerBytes: 10_000_000 } }).turns(12, { tools: [3000] });
  const limits = { ...FORECAST_LIMITS, largestPayload: [{ name: 'blob limit', value: 120_000 }] };
  const forecast = forecastRun(buildRunView(run.loaded()), limits);
  const html = renderForecastHtml([forecast]);

  it('draws one chart per metric: the measured line, the fit carried forward, and the limit it reaches with its turn', () => {
    const svgs = [...html.matchAll(/<svg [\s\S]*?<\/svg>/g)].map((m) => parseXml(`<?xml version="1.0" encoding="UTF-8"?>${m[0]}`));
    expect(svgs.map((svg) => svg.attributes['data-chart'])).toEqual([
      'forecast-1-largestPayload',
      'forecast-1-historyBytes',
      'forecast-1-events',
    ]);
    const payload = svgs[0];
    if (!payload) throw new Error('no chart');
    const classes = findAll(payload, 'path').map((p) => p.attributes.class);
    expect(classes).toEqual(['fit', 'series']);
    const blob = forecast.metrics.largestPayload.limits[0];
    expect(blob?.step).toBeGreaterThan(12);
    const hit = findAll(payload, 'circle').filter((c) => c.attributes.class === 'limit-hit');
    expect(hit.map((c) => findAll(c, 'title')[0]?.text)).toEqual([`blob limit 120 kB: at turn ${blob?.step}`]);
    expect(html).toContain(`blob limit 120 kB: at turn ${blob?.step}`);
  });

  it('is the same bytes for the same forecast', () => {
    expect(renderForecastHtml([forecastRun(buildRunView(run.loaded()), limits)])).toBe(html);
  });
});
