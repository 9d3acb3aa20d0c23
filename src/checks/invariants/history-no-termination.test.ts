import { describe, expect, it } from 'vitest';
import { AgentRunHistory, resultOf } from '../testing/index.ts';

describe('history.no-termination', () => {
  it('passes a completed run, and one terminated by an operator (noted)', () => {
    expect(resultOf(new AgentRunHistory().turn().complete(), 'history.no-termination').status).toBe('pass');
    const run = new AgentRunHistory().turn();
    run.history.terminated('scenario over', 'longrun-harness');
    const result = resultOf(run, 'history.no-termination');
    expect(result.status).toBe('pass');
    expect(result.evidence[0]).toContain('(not the history service)');
  });

  it.each([
    ['Workflow history size exceeds limit.', 'history-service'],
    ['Workflow history count exceeds limit.', 'history-service'],
    ['Workflow history size exceeds limit.', ''],
    ['Workflow history count exceeds limit.', ''],
    // The history service terminates for other limits too (mutable state size): its identity alone fails.
    ['Workflow mutable state size exceeds limit.', 'history-service'],
  ])('fails on a termination "%s" by "%s"', (reason, identity) => {
    const run = new AgentRunHistory().turn();
    const terminated = run.history.terminated(reason, identity);
    const result = resultOf(run, 'history.no-termination');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe(`event ${terminated}: WorkflowExecutionTerminated by "${identity}": "${reason}"`);
  });
});
