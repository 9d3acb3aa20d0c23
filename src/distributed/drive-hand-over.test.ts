import { describe, expect, it } from 'vitest';
import { childrenOf, childrenOfDrive, DEFAULT_RUNS_PER_EXECUTION, runsPerExecutionOf, sharesInOrder } from './drive-hand-over.ts';
import { drivenRunWorkflowId } from './harness-ids.ts';

describe('the drive continued as new', () => {
  it('keeps to the bound its input names, else the default; refuses one that would start nothing', () => {
    expect(runsPerExecutionOf({})).toBe(DEFAULT_RUNS_PER_EXECUTION);
    expect(runsPerExecutionOf({ runsPerExecution: 3 })).toBe(3);
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => runsPerExecutionOf({ runsPerExecution: bad })).toThrow(RangeError);
  });

  it('starts the shares in an order rotated by the executions before, each first in turn', () => {
    expect(sharesInOrder(['v0', 'v1', 'v2'], 0)).toEqual(['v0', 'v1', 'v2']);
    expect(sharesInOrder(['v0', 'v1', 'v2'], 1)).toEqual(['v1', 'v2', 'v0']);
    expect(sharesInOrder(['v0', 'v1', 'v2'], 5)).toEqual(['v2', 'v0', 'v1']);
  });

  it('names every run each share has started, those of earlier executions too, and none it has not', () => {
    const shares = { v0: { next: 2, startedAtMs: 0 }, v1: { next: 0, startedAtMs: 0 }, v2: { next: 1, startedAtMs: 0 } };
    expect(childrenOf('drive', 1000, ['v0', 'v1', 'v2'], shares)).toEqual([
      drivenRunWorkflowId('drive', 1000, 'v0', 0),
      drivenRunWorkflowId('drive', 1000, 'v0', 1),
      drivenRunWorkflowId('drive', 1000, 'v2', 0),
    ]);
  });

  it("returns the shares' places, which name every child, in a result that does not grow with the runs", () => {
    const shares = { v0: { next: 2, startedAtMs: 5 }, v1: { next: 1, startedAtMs: 5 } };
    expect(childrenOfDrive('drive', { startedAtMs: 1000, shares })).toEqual([
      drivenRunWorkflowId('drive', 1000, 'v0', 0),
      drivenRunWorkflowId('drive', 1000, 'v0', 1),
      drivenRunWorkflowId('drive', 1000, 'v1', 0),
    ]);
    // 100,000 runs: their ids as a list pass the server's 2 MB limit on a result; the places stay a few hundred bytes.
    const many = Object.fromEntries(['v0', 'v1', 'v2', 'ungated'].map((binary) => [binary, { next: 25_000, startedAtMs: 5 }]));
    const outcome = { startedAtMs: Date.parse('2026-12-04T00:00:00Z'), shares: many };
    const driveId = 'longrun-drive-cross-version-replay-seed3';
    expect(JSON.stringify(childrenOfDrive(driveId, outcome)).length).toBeGreaterThan(2 * 1024 * 1024);
    expect(JSON.stringify(outcome).length).toBeLessThan(500);
  });
});
