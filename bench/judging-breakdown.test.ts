import { describe, expect, it } from 'vitest';
import { checkGroup, JUDGING_REPLAY_TARGET, type JudgingRepetition, judgingBreakdown, judgingRatio } from './judging-breakdown.ts';

const repetition = (judgingCpuMs: number, bareReplayCpuMs: number, parts: Record<string, number>): JudgingRepetition => ({
  judgingCpuMs,
  bareReplayCpuMs,
  parts,
  serverFetchCpuMs: 10,
});

describe('judging against the bare replay', () => {
  it('takes the median of the repetitions’ ratios against the 1.15 target', () => {
    const ratio = judgingRatio([repetition(230, 100, {}), repetition(110, 100, {}), repetition(300, 200, {})]);
    expect(ratio.ratio).toBeCloseTo(1.5);
    expect(ratio.target).toBe(JUDGING_REPLAY_TARGET);
    expect(ratio.withinTarget).toBe(false);
    expect(judgingRatio([repetition(115, 100, {})]).withinTarget).toBe(true);
  });

  it('gives each part’s median against the bare replay, and what the parts leave of the judging as the rest', () => {
    const rows = judgingBreakdown([
      repetition(300, 100, { fetch: 40, replay: 120, 'checks journal': 10 }),
      repetition(320, 100, { fetch: 60, replay: 100, 'checks journal': 30 }),
      repetition(280, 200, { fetch: 50, replay: 110 }),
    ]);
    expect(rows.map((r) => r.part)).toEqual(['fetch', 'replay', 'checks journal', 'rest']);
    expect(rows.map((r) => r.cpuMs)).toEqual([50, 110, 10, 300 - 50 - 110 - 10]);
    expect(rows[1]?.ofBareReplay).toBeCloseTo(1.1);
    expect(() => judgingBreakdown([])).toThrow('at least one repetition');
  });

  it('groups the invariants by what comes before the first dot', () => {
    expect(checkGroup('compaction.card')).toBe('compaction');
    expect(checkGroup('wft.no-retry-loop')).toBe('wft');
    expect(checkGroup('run')).toBe('run');
  });
});
