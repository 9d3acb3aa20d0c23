import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../src/result/index.ts';
import { violationLines } from './month.ts';

describe('violationLines', () => {
  it('names each failed check of the first runs that failed one, with its first evidence line', () => {
    type Invariant = RunRecord['invariants'][number];
    const run = (runId: string, failed: string[]): Pick<RunRecord, 'runId' | 'outcome' | 'invariants'> => ({
      runId,
      outcome: 'completed',
      invariants: [
        { id: 'history.no-termination', status: 'pass', evidence: [] },
        ...failed.map((id): Invariant => ({ id: id as Invariant['id'], status: 'fail', evidence: [`${id} broke\nsecond line`] })),
      ],
    });
    const runs = [
      run('r0', []),
      run('r1', ['replay.deterministic']),
      run('r2', ['replay.deterministic', 'requests.accepted']),
      run('r3', ['x']),
    ];
    expect(violationLines(runs, 2)).toEqual([
      'r1 (completed): replay.deterministic: replay.deterministic broke',
      'r2 (completed): replay.deterministic: replay.deterministic broke',
      'r2 (completed): requests.accepted: requests.accepted broke',
    ]);
    expect(violationLines([run('r0', [])], 5)).toEqual([]);
  });
});
