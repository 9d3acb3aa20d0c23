import { describe, expect, it } from 'vitest';
import type { BinaryId } from '../kernel/index.ts';
import type { RunRecord } from '../result/index.ts';
import type { Expectation } from '../scenario/index.ts';
import { evaluateChaosRuns, evaluateExpectations, type StoppedRun } from './expectations.ts';

const run = (runId: string, binary: BinaryId) => ({ runId, binary }) as RunRecord;
const expectations: Expectation[] = [
  { on: 'v1', hold: 'all' },
  { on: 'ungated', violates: ['replay.cross-version'] },
];

describe('evaluateChaosRuns', () => {
  it('is met when every run is judged and every run expected to hold ended by itself', () => {
    const records = evaluateChaosRuns(
      expectations,
      [run('a', 'v1'), run('b', 'ungated')],
      [{ runId: 'b', binary: 'ungated', why: 'retry loop' }],
    );
    expect(records).toEqual([
      { description: 'chaos: every run is judged by an expectation on the binary that ran it last', met: true, detail: '2 runs' },
      { description: 'chaos: every run on v1 ended by itself', met: true, detail: 'no run had to be stopped' },
    ]);
  });

  it('names the runs that no expectation judges and those longrun had to stop', () => {
    const stopped: StoppedRun[] = [{ runId: 'a', binary: 'v1', why: 'longrun stopped the run after its timeout of 90 s' }];
    const [judged, ended] = evaluateChaosRuns(expectations, [run('a', 'v1'), run('c', 'v0')], stopped);
    expect(judged).toMatchObject({ met: false, detail: 'no expectation on c (v0)' });
    expect(ended).toMatchObject({ met: false, detail: 'a: longrun stopped the run after its timeout of 90 s' });
  });
});

describe('an ends expectation', () => {
  const ended = (runId: string, outcome: RunRecord['outcome'], reason?: string) =>
    ({ runId, binary: 'v1', outcome, executions: [{ closedBy: outcome, ...(reason ? { reason } : {}) }] }) as RunRecord;

  it('is met when every run on the binary ends that way', () => {
    const [record] = evaluateExpectations([{ on: 'v1', ends: 'completed' }], [ended('a', 'completed'), ended('b', 'completed')]);
    expect(record).toEqual({ description: 'on v1: every run ends completed', met: true, detail: '2 runs completed' });
  });

  it('names each run that ended otherwise, with the first line of its reason', () => {
    const runs = [
      ended('a', 'completed'),
      ended('b', 'failed', 'PayloadGuard: request would be 300000 bytes\nat turn 3'),
      ended('c', 'terminated'),
    ];
    const [record] = evaluateExpectations([{ on: 'v1', ends: 'completed' }], runs);
    expect(record).toMatchObject({
      met: false,
      detail: 'ended otherwise: b failed (PayloadGuard: request would be 300000 bytes), c terminated',
    });
  });

  it('is not met by runs of another binary', () => {
    const [record] = evaluateExpectations([{ on: 'v1', ends: 'failed' }], [{ ...ended('a', 'failed'), binary: 'v0' }]);
    expect(record).toMatchObject({ met: false, detail: 'no run finished on v1' });
  });
});

describe('a reproduces expectation with a turn', () => {
  const broke = (runId: string, turn?: number) =>
    ({
      runId,
      binary: 'v0',
      incidents: turn === undefined ? [] : ['tmprl1103'],
      ...(turn === undefined ? {} : { broke: { incident: 'tmprl1103', turn } }),
    }) as RunRecord;
  const at19: Expectation[] = [{ on: 'v0', reproduces: { incident: 'tmprl1103', atTurn: 19, within: 1 } }];

  it('is met when a run breaks on the incident within the tolerance of the turn', () => {
    expect(evaluateExpectations(at19, [broke('a', 20)])[0]).toEqual({
      description: 'on v0: tmprl1103 at turn 19 ± 1 reproduces',
      met: true,
      detail: '1 of 1 runs show tmprl1103, 1 at turn 20',
    });
  });

  it('fails when the run breaks on it at another turn, saying where', () => {
    expect(evaluateExpectations(at19, [broke('a', 23)])[0]).toMatchObject({ met: false, detail: 'tmprl1103 at turn 23, expected 19 ± 1' });
    expect(evaluateExpectations(at19, [broke('a', 17)])[0]).toMatchObject({ met: false });
    const exactly: Expectation[] = [{ on: 'v0', reproduces: { incident: 'tmprl1103', atTurn: 19, within: 0 } }];
    expect(evaluateExpectations(exactly, [broke('a', 20)])[0]).toMatchObject({ met: false, detail: 'tmprl1103 at turn 20, expected 19' });
  });

  it('fails when no run shows the incident, as the short form does', () => {
    expect(evaluateExpectations(at19, [broke('a')])[0]).toMatchObject({ met: false, detail: '0 of 1 runs show tmprl1103' });
    expect(evaluateExpectations([{ on: 'v0', reproduces: 'tmprl1103' }], [broke('a', 23)])[0]).toMatchObject({ met: true });
  });
});
