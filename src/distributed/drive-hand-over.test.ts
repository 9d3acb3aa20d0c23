import { describe, expect, it } from 'vitest';
import { childrenOf, DEFAULT_RUNS_PER_EXECUTION, runsPerExecutionOf, sharesInOrder } from './drive-hand-over.ts';
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
});
