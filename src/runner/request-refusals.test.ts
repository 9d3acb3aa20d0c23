import { describe, expect, it } from 'vitest';
import { MockRecorder } from '../../mocks/index.ts';
import { RequestRefusals } from './request-refusals.ts';

const request = {
  target: 'compaction',
  turn: 18,
  model: 'title-model',
  tool: null,
  stream: false,
  requestBytes: 900,
  responseBytes: 120,
  fault: null,
} as const;

function recorded(...records: { runId: string | null; binary: string | null; status: number; refusal: string | null }[]) {
  const recorder = new MockRecorder();
  const refusals = new RequestRefusals(recorder);
  for (const record of records) recorder.record({ ...request, ...record });
  return refusals;
}

describe('requests.accepted', () => {
  it('passes a run whose requests were all answered, counting them', () => {
    const refusals = recorded(
      { runId: 'r-0000', binary: 'v1', status: 200, refusal: null },
      { runId: 'r-0000', binary: 'v1', status: 500, refusal: null }, // an injected fault is no refusal
    );
    expect(refusals.verdict('r-0000', ['v1'])).toEqual({
      id: 'requests.accepted',
      status: 'pass',
      evidence: ['2 requests to the mocks, none refused'],
    });
    // The judge names the run's binary and the binaries that served it: the same one twice in process.
    expect(refusals.verdict('r-0000', ['v1', 'v1']).evidence).toEqual(['2 requests to the mocks, none refused']);
  });

  it('fails the run that sent a refused request, naming the turn and the field, and not its twin on another binary', () => {
    const refusals = recorded(
      { runId: 'r-0000', binary: 'v0', status: 200, refusal: null },
      { runId: 'r-0000', binary: 'v1', status: 400, refusal: 'body.messages: the digest shows more than its head' },
    );
    const failed = refusals.verdict('r-0000', ['v1']);
    expect(failed.status).toBe('fail');
    expect(failed.evidence).toEqual([
      'compaction model request of turn 18 refused with HTTP 400: body.messages: the digest shows more than its head',
    ]);
    expect(refusals.verdict('r-0000', ['v0']).status).toBe('pass');
    // Taken over by v1 half-way: v1's refusals are the run's too.
    expect(refusals.verdict('r-0000', ['v0', 'v1']).status).toBe('fail');
  });

  it("counts a foreign worker's refusal (no binary named) against every run of its id", () => {
    const refusals = recorded({ runId: 'r-0001', binary: null, status: 400, refusal: 'body.tools: turn 2 of r-0001 calls shell' });
    expect(refusals.verdict('r-0001', ['go-v1']).status).toBe('fail');
    expect(refusals.verdict('r-0002', ['go-v1']).status).toBe('pass');
  });

  it('counts a refusal no run can be told from against every run judged after it', () => {
    const refusals = recorded({ runId: null, binary: null, status: 404, refusal: 'tool: unknown tool "rm"' });
    expect(refusals.verdict('r-0003', ['v1']).evidence).toEqual([
      'compaction model request of turn 18 (no run could be told from it) refused with HTTP 404: tool: unknown tool "rm"',
    ]);
  });

  it('stops counting once closed', () => {
    const recorder = new MockRecorder();
    const refusals = new RequestRefusals(recorder);
    refusals.close();
    recorder.record({ ...request, runId: 'r-0000', binary: 'v1', status: 400, refusal: 'body.model: missing' });
    expect(refusals.verdict('r-0000', ['v1']).status).toBe('pass');
  });
});
