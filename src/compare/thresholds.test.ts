import { describe, expect, it } from 'vitest';
import { defaultThresholds, parseThresholdList, thresholdText } from './thresholds.ts';

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
});
