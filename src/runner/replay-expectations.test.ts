import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../result/index.ts';
import { fixtureRun } from '../result/testing/index.ts';
import type { Expectation } from '../scenario/index.ts';
import { evaluateExpectations } from './expectations.ts';
import { type ReplayOutcome, replayRecords, replayVerdict } from './replay-verdict.ts';
import { summarize } from './summarize.ts';
import { unexplainedRuns } from './unexplained-runs.ts';

const CONTROLS = new Set(['go-ungated']);
const DIVERGED = 'go-kernel replay: execution-1.json does not replay on';

/** A go-v0 run replayed on each binary: identical, or a nondeterminism. */
function replayed(runId: string, results: Record<string, 'identical' | 'nondeterministic'>, options: Partial<RunRecord> = {}): RunRecord {
  const outcomes: ReplayOutcome[] = Object.entries(results).map(([binary, result]) => ({
    binary,
    errors: result === 'identical' ? [] : [`${DIVERGED} ${binary}: [TMPRL1100] nondeterministic workflow`],
  }));
  const record = fixtureRun({ runId, turns: 6, growthBytes: 10_000, compaction: 'none' });
  return {
    ...record,
    binary: 'go-v0',
    invariants: [...record.invariants.filter((i) => i.id !== 'replay.cross-version'), replayVerdict(outcomes)],
    replays: replayRecords(outcomes, (binary) => CONTROLS.has(binary)),
    ...options,
  };
}

/** go-v0's runs as go-cross-version-replay makes them: go-v1 replays them, the ungated control cannot. */
const sound = [
  replayed('r-0', { 'go-v0': 'identical', 'go-v1': 'identical', 'go-ungated': 'nondeterministic' }),
  replayed('r-1', { 'go-v0': 'identical', 'go-v1': 'identical', 'go-ungated': 'nondeterministic' }),
];
/** The same with a go-v1 that cannot replay go-v0's histories (a GetVersion slip). */
const slipped = [
  replayed('r-0', { 'go-v0': 'identical', 'go-v1': 'nondeterministic', 'go-ungated': 'nondeterministic' }),
  replayed('r-1', { 'go-v0': 'identical', 'go-v1': 'nondeterministic', 'go-ungated': 'nondeterministic' }),
];

const replayBlock: Expectation[] = [{ on: 'go-v0', replay: { on: ['go-v0', 'go-v1'], failsOn: ['go-ungated'] } }];
const legacy: Expectation[] = [{ on: 'go-v0', violates: ['replay.cross-version'] }];

function passed(expectations: Expectation[], runs: RunRecord[]): boolean {
  const limits = { blobLimitBytes: 1, compactionTriggerBytes: 1, continueAsNewBytes: 1, historySizeLimitBytes: 1, historyCountLimit: 1 };
  const scenario = { name: 'replay', seed: 1, expect: expectations } as Parameters<typeof summarize>[0]['scenario'];
  const at = new Date('2026-01-01T00:00:00Z');
  return summarize({ scenario, runs, verdicts: [], environment: 'test', limits, startedAt: at, finishedAt: at, partial: false }).passed;
}

describe('a replay expectation', () => {
  it('is met when every run replays identically where it must and fails where it must', () => {
    expect(evaluateExpectations(replayBlock, sound)).toEqual([
      {
        description: 'on go-v0: its histories replay on go-v0, go-v1 and fail on go-ungated',
        met: true,
        detail: '2 of 2 replay on go-v0, 2 of 2 replay on go-v1, 2 of 2 fail on go-ungated',
      },
    ]);
    expect(unexplainedRuns(replayBlock, sound)).toEqual([]);
    expect(passed(replayBlock, sound)).toBe(true);
  });

  it("is not met when a release cannot replay, the control's failure notwithstanding, and names the runs and the replayer's words", () => {
    const [record] = evaluateExpectations(replayBlock, slipped);
    expect(record).toMatchObject({ met: false });
    expect(record?.detail).toBe(
      `not replayed identically on go-v1: r-0: replayed on go-v1: ${DIVERGED} go-v1: [TMPRL1100] nondeterministic workflow; ` +
        `r-1: replayed on go-v1: ${DIVERGED} go-v1: [TMPRL1100] nondeterministic workflow`,
    );
    expect(passed(replayBlock, slipped)).toBe(false);
  });

  it('is not met when no run fails on a binary it must fail on, or a run was not replayed where it must replay', () => {
    const noneFail = [replayed('r-0', { 'go-v0': 'identical', 'go-v1': 'identical', 'go-ungated': 'identical' })];
    expect(evaluateExpectations(replayBlock, noneFail)[0]).toMatchObject({
      met: false,
      detail: 'no run fails to replay on go-ungated (1 identical)',
    });
    const notOnV1 = [replayed('r-0', { 'go-v0': 'identical', 'go-ungated': 'nondeterministic' })];
    expect(evaluateExpectations(replayBlock, notOnV1)[0]).toMatchObject({
      met: false,
      detail: 'not replayed identically on go-v1: r-0: not replayed on go-v1',
    });
  });

  it("carves the failures it states out of a `hold` on the same binary, and no other's", () => {
    const holdAll: Expectation[] = [...replayBlock, { on: 'go-v0', hold: 'all' }];
    expect(evaluateExpectations(holdAll, sound)[1]).toMatchObject({ met: true });
    expect(evaluateExpectations(holdAll, slipped)[1]).toMatchObject({
      met: false,
      detail: 'violated: r-0: replay.cross-version, r-1: replay.cross-version',
    });
    expect(evaluateExpectations([{ on: 'go-v0', hold: 'all' }], sound)[0]).toMatchObject({ met: false });
  });

  it("states a control's own runs that fail on it (an upgrade to the control) as caught", () => {
    const takenOver = [{ ...replayed('u-0', { 'go-ungated': 'nondeterministic' }), binary: 'go-ungated' }];
    const onControl: Expectation[] = [{ on: 'go-ungated', replay: { on: [], failsOn: ['go-ungated'] } }];
    expect(evaluateExpectations(onControl, takenOver)[0]).toMatchObject({
      description: 'on go-ungated: its histories fail on go-ungated',
      met: true,
    });
    expect(unexplainedRuns(onControl, takenOver)).toEqual([]);
  });
});

describe("a release's failure to replay", () => {
  it("is never absorbed by a control's `violates: [replay.cross-version]`: the run is listed and the scenario fails", () => {
    // The control is still caught (its failure counts), but go-v1's slip is the run's own.
    expect(evaluateExpectations(legacy, slipped)[0]).toMatchObject({ met: true });
    expect(unexplainedRuns(legacy, slipped)).toEqual([
      {
        runId: 'r-0',
        binary: 'go-v0',
        why: `replay.cross-version: replayed on go-v1: ${DIVERGED} go-v1: [TMPRL1100] nondeterministic workflow`,
      },
      {
        runId: 'r-1',
        binary: 'go-v0',
        why: `replay.cross-version: replayed on go-v1: ${DIVERGED} go-v1: [TMPRL1100] nondeterministic workflow`,
      },
    ]);
    expect(passed(legacy, slipped)).toBe(false);
    expect(passed(legacy, sound)).toBe(true);
  });

  it('never meets a `violates: [replay.cross-version]` alone: only a control failing is the control caught', () => {
    const onlyRelease = [replayed('r-0', { 'go-v0': 'identical', 'go-v1': 'nondeterministic', 'go-ungated': 'identical' })];
    expect(evaluateExpectations(legacy, onlyRelease)[0]).toMatchObject({ met: false, detail: 'not caught by replay.cross-version' });
  });

  it('is not hidden by an incident a `reproduces` explains the run with', () => {
    const reproduces: Expectation[] = [{ on: 'go-v0', reproduces: 'tmprl1103' }];
    const looped = replayed(
      'r-0',
      { 'go-v0': 'identical', 'go-v1': 'nondeterministic' },
      { incidents: ['tmprl1103'], outcome: 'terminated' },
    );
    expect(evaluateExpectations(reproduces, [looped])[0]).toMatchObject({ met: true });
    expect(unexplainedRuns(reproduces, [looped]).map((u) => u.why)).toEqual([
      `replay.cross-version: replayed on go-v1: ${DIVERGED} go-v1: [TMPRL1100] nondeterministic workflow`,
    ]);
    expect(passed(reproduces, [looped])).toBe(false);
  });

  it('is left to a `hold` that judges replay.cross-version, which fails on it', () => {
    const held: Expectation[] = [
      { on: 'go-v0', reproduces: 'tmprl1103' },
      { on: 'go-v0', hold: ['replay.cross-version'] },
    ];
    const looped = replayed(
      'r-0',
      { 'go-v0': 'identical', 'go-v1': 'nondeterministic' },
      { incidents: ['tmprl1103'], outcome: 'terminated' },
    );
    expect(unexplainedRuns(held, [looped])).toEqual([]);
    expect(evaluateExpectations(held, [looped])[1]).toMatchObject({ met: false, detail: 'violated: r-0: replay.cross-version' });
  });

  it('is expected only where a `replay.failsOn` names that very binary', () => {
    const statesIt: Expectation[] = [{ on: 'go-v0', replay: { on: ['go-v0'], failsOn: ['go-v1', 'go-ungated'] } }];
    expect(unexplainedRuns(statesIt, slipped)).toEqual([]);
    expect(passed(statesIt, slipped)).toBe(true);
  });
});
