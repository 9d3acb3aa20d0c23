import { describe, expect, it } from 'vitest';
import { coordinate, createPlot, emptyChart, linearScale, niceTicks } from './plot.ts';

describe('niceTicks', () => {
  it('steps by 1, 2 or 5 times a power of ten', () => {
    expect(niceTicks(0, 2_264_924)).toEqual([0, 500_000, 1_000_000, 1_500_000, 2_000_000]);
    expect(niceTicks(1, 45, 8)).toEqual([10, 20, 30, 40]);
    expect(niceTicks(0, 1.15)).toEqual([0, 0.5, 1]);
  });

  it('gives one tick for an empty range', () => {
    expect(niceTicks(3, 3)).toEqual([3]);
  });
});

describe('linearScale and coordinate', () => {
  it('maps the domain onto the range, flipped when asked', () => {
    const y = linearScale([0, 100], [300, 100]);
    expect(y(0)).toBe(300);
    expect(y(50)).toBe(200);
    expect(y(100)).toBe(100);
    expect(coordinate(12.345)).toBe('12.3');
    expect(coordinate(7)).toBe('7');
  });
});

describe('createPlot', () => {
  it('draws axes and labels with lines and text only, so paths, rects and circles are data', () => {
    const svg = createPlot({
      name: 'probe',
      title: 'Probe <&>',
      xDomain: [0, 10],
      yDomain: [0, 10],
      xLabel: 'x',
      yLabel: 'y',
      xFormat: String,
      yFormat: String,
    }).svg();
    expect(svg).toMatch(/^<svg data-chart="probe" /);
    expect(svg).toContain('<title>Probe &lt;&amp;&gt;</title>');
    expect(svg).not.toMatch(/<(path|rect|circle)\b/);
  });
});

describe('emptyChart', () => {
  it('says there is no data and draws nothing', () => {
    const svg = emptyChart('latency', 'Latency', 'no turn latency was recorded');
    expect(svg).toContain('data-chart="latency"');
    expect(svg).toContain('data-empty="true"');
    expect(svg).toContain('No data: no turn latency was recorded');
    expect(svg).not.toMatch(/<(path|rect|circle)\b/);
  });
});
