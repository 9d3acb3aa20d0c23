import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../result/index.ts';
import { fixtureRun } from '../result/testing/index.ts';
import type { Expectation } from '../scenario/index.ts';
import { evaluateExpectations } from './expectations.ts';
import { replayVerdict } from './replay-verdict.ts';
import { unexplainedRuns } from './unexplained-runs.ts';

const run = (runId: string, options: Partial<Parameters<typeof fixtureRun>[0]> = {}) =>
  fixtureRun({ runId, binary: 'v0', turns: 6, growthBytes: 10_000, compaction: 'none', ...options });

/** The run's last execution ended with this reason. */
function endedWith(record: RunRecord, reason: string): RunRecord {
  const last = record.executions.at(-1);
  return { ...record, executions: [...record.executions.slice(0, -1), { ...(last as RunRecord['executions'][number]), reason }] };
}

const notReplayed = (record: RunRecord): RunRecord => ({
  ...record,
  invariants: [
    ...record.invariants,
    replayVerdict([
      {
        binary: 'v0',
        errors: [],
        notReplayed: { why: 'its replayer (`python replay.py`) exited with SIGABRT after 2.1 s', stderr: ['Fatal Python error: Aborted'] },
      },
    ]),
  ],
});

describe('unexplainedRuns', () => {
  const reproduces: Expectation[] = [{ on: 'v0', reproduces: 'tmprl1103' }];

  it('lists a run that failed for another reason than the incident a met `reproduces` names, with its first evidence line', () => {
    const reproduced = run('r-1', {
      outcome: 'terminated',
      incidents: ['tmprl1103'],
      failures: { 'wft.no-retry-loop': ['event 41: PAYLOADS_TOO_LARGE'] },
    });
    const died = endedWith(
      run('r-2', { outcome: 'failed' }),
      'Error serializing to JSON: UnicodeEncodeError: surrogates not allowed\n  at turn 12',
    );
    expect(evaluateExpectations(reproduces, [reproduced, died])[0]?.met).toBe(true);
    expect(unexplainedRuns(reproduces, [reproduced, died])).toEqual([
      { runId: 'r-2', binary: 'v0', why: 'ended failed: Error serializing to JSON: UnicodeEncodeError: surrogates not allowed' },
    ]);
  });

  it("gives a run that closed before its first model call its early-end line, without the run's id twice", () => {
    const early = {
      ...endedWith(run('r-5', { outcome: 'failed' }), 'originalInput is not iterable'),
      earlyEnd:
        'run r-5: agentRun failed before its first model call (no call_model in its history): originalInput is not iterable; it was started with ...',
    };
    // Completed at once, with `ends: completed` met: still never driven.
    const completedAtOnce = { ...early, outcome: 'completed' as const };
    const ends = [{ on: 'v0', ends: 'completed' }] as Expectation[];
    expect(unexplainedRuns(ends, [completedAtOnce]).map((u) => u.runId)).toEqual(['r-5']);
    expect(unexplainedRuns(reproduces, [early])).toEqual([
      {
        runId: 'r-5',
        binary: 'v0',
        why: 'agentRun failed before its first model call (no call_model in its history): originalInput is not iterable; it was started with ...',
      },
    ]);
  });

  it('lists a run that violated an invariant no expectation judges, and none that only passed', () => {
    const violating = run('r-3', { failures: { 'journal.chain': ['event 12: seq 4 follows seq 2'] } });
    expect(unexplainedRuns(reproduces, [run('r-0'), violating])).toEqual([
      { runId: 'r-3', binary: 'v0', why: 'journal.chain: event 12: seq 4 follows seq 2' },
    ]);
  });

  it('leaves to `hold` and `ends` what they judge, and to a `hold` that names some invariants the others', () => {
    const violating = run('r-4', { outcome: 'terminated', failures: { 'compaction.trigger': ['turn 9: no compaction'] } });
    expect(
      unexplainedRuns(
        [
          { on: 'v0', hold: 'all' },
          { on: 'v0', ends: 'completed' },
        ],
        [violating],
      ),
    ).toEqual([]);
    expect(
      unexplainedRuns(
        [
          { on: 'v0', hold: ['journal.chain'] },
          { on: 'v0', ends: 'completed' },
        ],
        [violating],
      ),
    ).toEqual([]);
    // `hold: all` judges the invariants, not the run's end.
    expect(unexplainedRuns([{ on: 'v0', hold: 'all' }], [violating])).toEqual([
      { runId: 'r-4', binary: 'v0', why: 'ended terminated: r-4 ended terminated' },
    ]);
  });

  it("explains a broken control's runs its invariants caught, not one that went wrong otherwise", () => {
    const violates: Expectation[] = [{ on: 'v0', violates: ['replay.cross-version', 'wft.no-retry-loop'] }];
    const caught = run('c-1', { outcome: 'terminated', failures: { 'wft.no-retry-loop': ['attempt 3'], 'run.liveness': ['stuck'] } });
    const otherwise = run('c-2', { outcome: 'timed-out' });
    expect(unexplainedRuns(violates, [caught, otherwise, run('c-3')])).toEqual([
      { runId: 'c-2', binary: 'v0', why: 'ended timed-out: c-2 ended timed-out' },
    ]);
  });

  it('lists a run that could not be replayed whatever explains it, and such a failure catches no control', () => {
    const reproduced = notReplayed(run('r-5', { outcome: 'terminated', incidents: ['tmprl1103'] }));
    expect(unexplainedRuns(reproduces, [reproduced])).toEqual([
      {
        runId: 'r-5',
        binary: 'v0',
        why: 'could not be replayed on v0: its replayer (`python replay.py`) exited with SIGABRT after 2.1 s',
      },
    ]);
    const [control] = evaluateExpectations([{ on: 'v0', violates: ['replay.cross-version'] }], [reproduced]);
    expect(control).toMatchObject({ met: false, detail: 'not caught by replay.cross-version' });
  });

  it('leaves out a run longrun stopped for an interrupt (the partial summary says so) and a run on another binary', () => {
    const interrupted = endedWith(run('i-1', { outcome: 'terminated' }), 'longrun was interrupted; pending: call_model attempt 1');
    expect(unexplainedRuns(reproduces, [interrupted])).toEqual([]);
    expect(unexplainedRuns([{ on: 'v1', hold: 'all' }], [run('o-1', { binary: 'v1' }), run('o-2', { outcome: 'failed' })])).toEqual([
      { runId: 'o-2', binary: 'v0', why: 'ended failed: o-2 ended failed' },
    ]);
  });
});
