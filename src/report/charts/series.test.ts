import { describe, expect, it } from 'vitest';
import { fixtureRun } from '../../result/testing/index.ts';
import { accumulatedLines, band, decimate, selectRuns } from './series.ts';

describe('selectRuns', () => {
  const small = fixtureRun({ runId: 'small', turns: 10, growthBytes: 10_000, compaction: 'ok' });
  const big = fixtureRun({ runId: 'big', turns: 40, growthBytes: 30_000, compaction: 'ok' });
  const failing = fixtureRun({ runId: 'failing', turns: 5, growthBytes: 1000, compaction: 'ok', failures: { 'journal.chain': ['gap'] } });

  it('puts failing runs first, then the largest by peak request bytes', () => {
    expect(selectRuns([small, big, failing]).drawn.map((r) => r.runId)).toEqual(['failing', 'big', 'small']);
  });

  it('draws at most the cap and counts the rest', () => {
    const selection = selectRuns([small, big, failing], 2);
    expect(selection.drawn.map((r) => r.runId)).toEqual(['failing', 'big']);
    expect(selection.omitted).toBe(1);
  });
});

describe('decimate', () => {
  const points = Array.from({ length: 10_000 }, (_, i) => ({ x: i + 1, y: i === 7777 ? 5_000_000 : (i * 37) % 1000 }));

  it('keeps at most the budget, in x order, with the peak', () => {
    const kept = decimate(points, 600);
    expect(kept.length).toBeLessThanOrEqual(600);
    expect(kept.length).toBeGreaterThan(300);
    expect(kept.some((p) => p.y === 5_000_000)).toBe(true);
    expect(kept.every((p, i) => i === 0 || p.x > (kept[i - 1]?.x ?? 0))).toBe(true);
  });

  it('leaves short lines alone', () => {
    expect(decimate(points.slice(0, 50), 600)).toEqual(points.slice(0, 50));
  });
});

describe('band', () => {
  it('gives the lowest and highest value of all lines per column', () => {
    const columns = band(
      [
        [
          { x: 0, y: 1 },
          { x: 10, y: 5 },
        ],
        [
          { x: 0, y: 3 },
          { x: 10, y: 2 },
        ],
      ],
      2,
    );
    expect(columns).toEqual([
      { x: 2.5, low: 1, high: 3 },
      { x: 7.5, low: 2, high: 5 },
    ]);
  });

  it('is empty without points', () => {
    expect(band([[], []])).toEqual([]);
  });
});

describe('accumulatedLines', () => {
  it('restarts per execution and marks the ContinueAsNew at the last turn of the continued execution', () => {
    const run = fixtureRun({ runId: 'long', turns: 260, growthBytes: 40_000, compaction: 'ok' });
    const { executions, continueAsNew } = accumulatedLines(run);
    expect(executions.map((e) => e.execution)).toEqual([1, 2]);
    const first = run.turns.filter((t) => t.execution === 1);
    const firstTotal = first.reduce((sum, t) => sum + t.requestBytes, 0);
    expect(executions[0]?.points.at(-1)).toEqual({ x: first.at(-1)?.turn, y: firstTotal });
    expect(executions[1]?.points[0]?.y).toBe(run.turns.find((t) => t.execution === 2)?.requestBytes);
    expect(continueAsNew).toEqual([{ execution: 1, point: { x: first.at(-1)?.turn, y: firstTotal } }]);
  });
});
