import { describe, expect, it } from 'vitest';
import { totalsOf } from '../result/index.ts';
import { FIXTURE_LIMITS, fixtureRun } from '../result/testing/index.ts';
import { scenarioSchema } from '../scenario/index.ts';
import { resolveLimits } from './limits.ts';
import { type SummaryInput, summarize } from './summarize.ts';

const scenario = scenarioSchema.parse({ name: 'summarized', seed: 7, expect: [{ on: 'v1', hold: 'all' }] });
const clean = fixtureRun({ runId: 'summarized-run-0000', binary: 'v1', turns: 12, growthBytes: 100_000, compaction: 'ok' });
const failing = fixtureRun({
  runId: 'summarized-run-0001',
  binary: 'v1',
  turns: 5,
  growthBytes: 100_000,
  compaction: 'ok',
  failures: { 'payload.ceiling': ['event 57: 2,203,001 bytes'] },
});

function input(overrides: Partial<SummaryInput> = {}): SummaryInput {
  return {
    scenario,
    runs: [clean],
    verdicts: [],
    environment: 'embedded Temporal server',
    limits: resolveLimits(scenario, undefined),
    startedAt: new Date('2026-12-01T10:00:00Z'),
    finishedAt: new Date('2026-12-01T10:01:30Z'),
    partial: false,
    ...overrides,
  };
}

describe('summarize', () => {
  it('passes a whole run whose expectations hold, with its totals, limits and times', () => {
    const summary = summarize(input({ scenarioFile: 'scenarios/summarized.yaml' }));
    expect(summary).toMatchObject({
      scenario: 'summarized',
      scenarioFile: 'scenarios/summarized.yaml',
      seed: 7,
      startedAt: '2026-12-01T10:00:00.000Z',
      finishedAt: '2026-12-01T10:01:30.000Z',
      durationMs: 90_000,
      partial: false,
      environment: 'embedded Temporal server',
      limits: FIXTURE_LIMITS,
      passed: true,
    });
    expect(summary.totals).toEqual(totalsOf([clean]));
    expect(summary.expectations).toEqual([{ description: 'on v1: every invariant holds', met: true, detail: '1 runs, no violation' }]);
    expect(summary).not.toHaveProperty('load');
  });

  it('fails on a violation, and counts it in the totals', () => {
    const summary = summarize(input({ runs: [clean, failing] }));
    expect(summary.passed).toBe(false);
    expect(summary.expectations[0]).toMatchObject({ met: false, detail: 'violated: summarized-run-0001: payload.ceiling' });
    expect(summary.totals).toMatchObject({ runs: 2, turns: 17, violations: 1 });
  });

  it('never passes partial, or with no run judged', () => {
    expect(summarize(input({ partial: true }))).toMatchObject({ partial: true, passed: false });
    expect(summarize(input({ runs: [] })).passed).toBe(false);
  });

  it("adds the chaos and soak verdicts after the scenario's own expectations, and fails on one unmet", () => {
    const verdict = { description: 'chaos: every run on v1 ended by itself', met: false, detail: 'summarized-run-0000: stopped' };
    const summary = summarize(input({ verdicts: [verdict] }));
    expect(summary.expectations.map((e) => e.description)).toEqual(['on v1: every invariant holds', verdict.description]);
    expect(summary.passed).toBe(false);
  });
});

describe('summarize with a run no expectation accounts for', () => {
  it('lists it and does not pass, though every expectation is met', () => {
    const reproducing = scenarioSchema.parse({ name: 'long', seed: 7, expect: [{ on: 'v0', reproduces: 'tmprl1103' }] });
    const reproduced = fixtureRun({
      runId: 'long-run-0000',
      binary: 'v0',
      turns: 21,
      growthBytes: 100_000,
      compaction: 'none',
      outcome: 'terminated',
      incidents: ['tmprl1103'],
    });
    const died = fixtureRun({
      runId: 'long-run-0001',
      binary: 'v0',
      turns: 12,
      growthBytes: 100_000,
      compaction: 'none',
      outcome: 'failed',
    });
    const summary = summarize(input({ scenario: reproducing, runs: [reproduced, died] }));
    expect(summary.expectations.every((e) => e.met)).toBe(true);
    expect(summary.unexplained).toEqual([{ runId: 'long-run-0001', binary: 'v0', why: 'ended failed: long-run-0001 ended failed' }]);
    expect(summary.passed).toBe(false);
    expect(summarize(input())).not.toHaveProperty('unexplained');
  });
});
