import { describe, expect, it } from 'vitest';
import { loadHistory } from '../history/load.ts';
import { AgentRunHistory } from '../testing/agent-run-history.ts';
import { payload, SdkHistory } from '../testing/sdk-histories.ts';
import { groupRuns } from './group-runs.ts';

const DIALECT = { enums: 'constant', int64: 'string', nulls: false } as const;

function execution(runId: string, options: { continuedFromRunId?: string; firstRunId?: string; workflowId?: string } = {}) {
  const history = new SdkHistory(DIALECT, {
    workflowType: 'Batch',
    workflowId: options.workflowId ?? 'batch',
    runId,
    taskQueue: 'q',
    input: [payload.json(1)],
    ...options,
  }).workflowTask();
  return loadHistory(history.continueAsNew(`${runId}-next`, []) as never, { source: runId });
}

const sources = (runs: ReturnType<typeof groupRuns>) => runs.map((run) => run.map((h) => h.source));

describe('grouping executions into runs', () => {
  it('follows ContinueAsNew links whatever the order, and keeps unrelated runs apart', () => {
    const a1 = execution('a1');
    const a2 = execution('a2', { continuedFromRunId: 'a1', firstRunId: 'a1' });
    const a3 = execution('a3', { continuedFromRunId: 'a2', firstRunId: 'a1' });
    const b1 = execution('b1', { workflowId: 'other' });
    expect(sources(groupRuns([a3, b1, a1, a2]))).toEqual([['a3', 'a1', 'a2'], ['b1']]);
  });

  it('puts an execution whose predecessor is missing with its first run, so the gap shows in that run', () => {
    const a1 = execution('a1');
    const a3 = execution('a3', { continuedFromRunId: 'a2', firstRunId: 'a1' });
    expect(sources(groupRuns([a1, a3]))).toEqual([['a1', 'a3']]);
  });

  it("does not join another workflow's execution that names the same run, and groups our kernel's chains", () => {
    const a1 = execution('a1');
    const stranger = execution('s2', { continuedFromRunId: 'a1', workflowId: 'someone-else' });
    expect(sources(groupRuns([a1, stranger]))).toEqual([['a1'], ['s2']]);
    const ours = new AgentRunHistory().turn().continueAsNew().turn().complete().loaded();
    expect(groupRuns([...ours].reverse())).toHaveLength(1);
  });
});
