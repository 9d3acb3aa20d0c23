import { describe, expect, it } from 'vitest';
import { loadHistory } from '../history/load.ts';
import { buildRunView } from '../run/run-view.ts';
import { AgentRunHistory } from '../testing/agent-run-history.ts';
import { sdkFixtures } from '../testing/sdk-histories.ts';
import { firstStepReaching, fitPolynomial } from './fit.ts';
import { FORECAST_LIMITS, type ForecastLimits, forecastRun } from './forecast.ts';

const BLOB = 120_000;
const limits: ForecastLimits = { ...FORECAST_LIMITS, largestPayload: [{ name: 'blob limit', value: BLOB }] };

describe('fits', () => {
  it('recovers a line and a parabola, and finds the first step at or over a limit', () => {
    const xs = [1, 2, 3, 4, 5];
    expect(
      fitPolynomial(
        xs,
        xs.map((x) => 3 + 2 * x),
        1,
      ).map((c) => Number(c.toFixed(6))),
    ).toEqual([3, 2]);
    expect(
      fitPolynomial(
        xs,
        xs.map((x) => 1 + x + 0.5 * x * x),
        2,
      ).map((c) => Number(c.toFixed(6))),
    ).toEqual([1, 1, 0.5]);
    expect(firstStepReaching([3, 2], 100, 5)).toBe(49); // 3 + 2·48.5 = 100
    expect(firstStepReaching([1, 1, 0.5], 1000, 5)).toBe(44);
    expect(firstStepReaching([10, -1], 100, 5)).toBeUndefined(); // shrinking
    expect(firstStepReaching([0, 10, -1], 30, 2)).toBeUndefined(); // peaks at 25
    expect(firstStepReaching([0, 10], 30, 5)).toBe(6); // already past: the next step
  });
});

describe('forecasting a run', () => {
  /** A run without compaction (as v0 plays): the request grows by a tool output every turn. */
  const growing = () => new AgentRunHistory({ limits: { compactionTriggerBytes: 10_000_000 } });
  const requestBytes = (run: AgentRunHistory) => Buffer.byteLength(JSON.stringify(run.request()));

  it('names the turn at which the request passes the blob limit, from the first third of the turns', () => {
    const run = growing();
    let broke = 0;
    for (let turn = 1; broke === 0; turn++) {
      if (requestBytes(run) >= BLOB) broke = turn;
      else run.turn({ tools: [3000] });
    }
    const observed = Math.floor(broke / 3);
    const prefix = growing().turns(observed, { tools: [3000] });
    const forecast = forecastRun(buildRunView(prefix.loaded()), limits);
    expect(forecast.unit).toBe('turn');
    expect(forecast.samples.map((s) => s.step)).toEqual(Array.from({ length: observed }, (_, i) => i + 1));
    const blob = forecast.metrics.largestPayload.limits[0];
    expect(blob?.observed).toBe(false);
    expect(Math.abs((blob?.step ?? 0) - broke)).toBeLessThanOrEqual(1);
    expect(forecast.metrics.events.perStep).toBeGreaterThan(0);
  });

  it('names the turn at which the history passes a size limit: it grows as a parabola, each request carrying the dialog so far', () => {
    const sizeLimits: ForecastLimits = { ...limits, historyBytes: [{ name: 'error', value: 1_500_000 }] };
    const whole = forecastRun(
      buildRunView(
        growing()
          .turns(45, { tools: [3000] })
          .loaded(),
      ),
      sizeLimits,
    );
    const hit = whole.metrics.historyBytes.limits[0];
    expect(hit?.observed).toBe(true);
    const prefix = forecastRun(
      buildRunView(
        growing()
          .turns(15, { tools: [3000] })
          .loaded(),
      ),
      sizeLimits,
    );
    const predicted = prefix.metrics.historyBytes.limits[0];
    expect(predicted?.observed).toBe(false);
    expect(Math.abs((predicted?.step ?? 0) - (hit?.step ?? 0)), `predicted ${predicted?.step}, hit at ${hit?.step}`).toBeLessThanOrEqual(1);
  });

  it('says which limits a history already hit, and forecasts another workflow per activity', () => {
    const run = growing().turns(60, { tools: [3000] });
    const forecast = forecastRun(buildRunView(run.loaded()), limits);
    expect(forecast.metrics.largestPayload.limits[0]).toMatchObject({ observed: true });
    const java = loadHistory(sdkFixtures()['java-subscription-large-payload.json'] as never);
    const other = forecastRun(buildRunView([java]));
    expect(other).toMatchObject({ runId: 'subscription-42', workflowType: 'SubscriptionWorkflow', unit: 'activity' });
    expect(other.metrics.largestPayload.limits[0]).toMatchObject({ name: 'blob limit', observed: true, step: 1 });
  });
});
