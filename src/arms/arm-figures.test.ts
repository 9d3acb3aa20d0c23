import { describe, expect, it } from 'vitest';
import { fixtureRun, fixtureSummary } from '../result/testing/index.ts';
import { armFigures } from './arm-figures.ts';
import { armsTable } from './arms-table.ts';

const CALM_V0 = { answer: 'none', binary: 'v0', chaos: 'none' };

describe('armFigures', () => {
  it('reports the run that broke earliest, by its incident, else its first failed invariant, else how it ended', () => {
    const summary = fixtureSummary([
      fixtureRun({ runId: 'r-late', turns: 30, growthBytes: 1000, compaction: 'none', incidents: ['history-size'], outcome: 'terminated' }),
      fixtureRun({ runId: 'r-early', turns: 12, growthBytes: 1000, compaction: 'none', failures: { 'payload.ceiling': ['event 40'] } }),
      fixtureRun({ runId: 'r-fine', turns: 5, growthBytes: 1000, compaction: 'none' }),
    ]);
    expect(armFigures(summary, CALM_V0).brokeFirst).toEqual({ what: 'payload.ceiling', turn: 12, runId: 'r-early' });
    const timedOut = fixtureSummary([fixtureRun({ runId: 'r', turns: 7, growthBytes: 1000, compaction: 'none', outcome: 'timed-out' })]);
    expect(armFigures(timedOut, CALM_V0).brokeFirst).toEqual({ what: 'timed-out', turn: 7, runId: 'r' });
  });

  it('says nothing broke when every run completed and held, and counts history, events, the store and the tokens', () => {
    const runs = [
      fixtureRun({ runId: 'a', turns: 10, growthBytes: 1000, compaction: 'ok' }),
      fixtureRun({ runId: 'b', turns: 20, growthBytes: 1000, compaction: 'ok' }),
    ];
    const summary = fixtureSummary(runs);
    const withStore = {
      ...summary,
      totals: { ...summary.totals, inputTokens: { agent: 1200, compaction: 34 } },
      load: { ...(summary.load as NonNullable<typeof summary.load>), store: { objects: 3, bytes: 9000 } },
    };
    const figures = armFigures(withStore, { answer: 'state card', binary: 'v1', chaos: 'none' });
    expect(figures.brokeFirst).toBeNull();
    const [a = 0, b = 0] = runs.map((run) => run.executions.reduce((n, e) => n + e.historyBytes, 0));
    expect(figures.historyBytesPerRun).toEqual({ mean: Math.round((a + b) / 2), max: Math.max(a, b) });
    expect(figures).toMatchObject({ storedBytes: 9000, storedObjects: 3, inputTokens: { agent: 1200, compaction: 34 }, runsCompleted: 2 });
    expect(armsTable([figures])).toMatch(/\| state card \(v1\) \| none \| .* \| 9 kB in 3 objects \| 1,200 \+ 34 \| .* \| nothing \|$/m);
  });
});
