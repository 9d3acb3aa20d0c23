import { describe, expect, it } from 'vitest';
import { defaultThresholds, mergeThresholds, parseThresholdList, scenarioThresholds, thresholdText } from './thresholds.ts';

describe('the thresholds of a comparison', () => {
  it('default to a share of the baseline for rates, latency and peaks, nothing for violations, and leave the slopes unjudged', () => {
    const defaults = defaultThresholds();
    expect(defaults['turns-per-second']).toEqual({ percent: 10 });
    expect(defaults.p99).toEqual({ percent: 20 });
    expect(defaults.violations).toEqual({ amount: 0 });
    expect(defaults['invariant-fails']).toEqual({ amount: 0 });
    expect(defaults['worker-rss-growth']).toBe('off');
  });

  it('reads a command line list of percentages, amounts and off', () => {
    expect(parseThresholdList('turns-per-second=5%, p99=250,worker-rss-growth=off,')).toEqual({
      'turns-per-second': { percent: 5 },
      p99: { amount: 250 },
      'worker-rss-growth': 'off',
    });
  });

  it('names the part of the list it cannot read', () => {
    expect(() => parseThresholdList('p999=20%')).toThrow('"p999" is no figure (did you mean p99?): one of turns-per-second,');
    expect(() => parseThresholdList('p99=fast')).toThrow('p99=fast: want a percentage of the baseline (10%), an amount in ms, or off');
    expect(() => parseThresholdList('p99=-5%')).toThrow('p99=-5%');
    expect(() => parseThresholdList('p99')).toThrow('"p99": want KEY=LIMIT');
  });

  it('says a limit as it was written, with the unit of an amount', () => {
    expect(thresholdText('p99', { amount: 250 })).toBe('250 ms');
    expect(thresholdText('violations', { amount: 0 })).toBe('0');
    expect(thresholdText('turns-per-second', { percent: 10 })).toBe('10%');
    expect(thresholdText('server-rss-growth', 'off')).toBe('off');
  });

  it("reads a scenario's compare.maxRegression in the forms of the command line", () => {
    expect(scenarioThresholds({ maxRegression: { p99: '25%', violations: 2, 'worker-rss-growth': 'off' } })).toEqual({
      p99: { percent: 25 },
      violations: { amount: 2 },
      'worker-rss-growth': 'off',
    });
    expect(scenarioThresholds(undefined)).toEqual({});
  });

  it('takes the defaults, then the scenario, then the flag: the last that sets a key wins, and says which did', () => {
    const merged = mergeThresholds(
      { p99: { percent: 25 }, p50: { percent: 30 }, 'worker-rss-growth': { amount: 400 } },
      { p99: { amount: 300 }, violations: 'off' },
    );
    expect(merged.thresholds.p99).toEqual({ amount: 300 });
    expect(merged.from.p99).toBe('flag');
    expect(merged.thresholds.p50).toEqual({ percent: 30 });
    expect(merged.from.p50).toBe('scenario');
    expect(merged.thresholds['worker-rss-growth']).toEqual({ amount: 400 });
    expect(merged.from['worker-rss-growth']).toBe('scenario');
    expect(merged.thresholds.violations).toBe('off');
    expect(merged.from.violations).toBe('flag');
    expect(merged.thresholds.p95).toEqual({ percent: 20 });
    expect(merged.from.p95).toBe('default');
    expect(merged.thresholds['tokens-per-turn']).toEqual({ percent: 10 });
    expect(mergeThresholds({}, {})).toEqual({ thresholds: defaultThresholds(), from: expect.any(Object) });
  });
});
