import { describe, expect, it } from 'vitest';
import type { MockRecord } from '../../mocks/index.ts';
import { fixtureRun } from '../result/testing/index.ts';
import { RunTally } from './run-tally.ts';

const request = (target: MockRecord['target'], status: number, requestBytes: number): MockRecord => ({
  seq: 1,
  target,
  runId: 'tally-run-0000',
  binary: 'v1',
  turn: 1,
  model: null,
  tool: null,
  stream: false,
  requestBytes,
  responseBytes: 0,
  status,
  fault: null,
  refusal: null,
});

describe('RunTally', () => {
  it('counts runs started, judging and done, the turns answered, the bytes sent to the agent and the violations', () => {
    const tally = new RunTally();
    tally.runsStarted = 3;
    tally.runsEnded = 2;
    const failing = fixtureRun({
      runId: 'tally-run-0000',
      binary: 'v1',
      turns: 4,
      growthBytes: 1_000,
      compaction: 'none',
      failures: { 'payload.ceiling': ['event 9'] },
    });
    tally.add('tally-run-0000', failing, undefined);
    const requests = [request('agent', 200, 1_000), request('agent', 500, 2_000), request('compaction', 200, 5_000)];
    expect(tally.progress(requests, 1_500, 6)).toEqual({
      runsDone: 1,
      runsStarted: 3,
      runsJudging: 1,
      runsTotal: 6,
      turns: 1,
      bytes: 3_000,
      violations: 1,
      elapsedMs: 1_500,
    });
    expect(tally.progress([], 0, undefined)).not.toHaveProperty('runsTotal');
    expect(tally.counters()).toEqual({ runsStarted: 3, runsDone: 1, turns: 4 });
  });

  it('keeps the runs longrun stopped, as the binary that ran them last', () => {
    const tally = new RunTally();
    const record = fixtureRun({ runId: 'tally-run-0001', binary: 'v2', turns: 2, growthBytes: 1_000, compaction: 'none' });
    tally.add('tally-run-0001', record, 'longrun was interrupted');
    expect(tally.stopped).toEqual([{ runId: 'tally-run-0001', binary: 'v2', why: 'longrun was interrupted' }]);
    expect(tally.records).toEqual([record]);
  });
});
