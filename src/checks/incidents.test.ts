import { describe, expect, it } from 'vitest';
import { incidentsOf } from './incidents.ts';
import { AgentRunHistory } from './testing/index.ts';

describe('incidentsOf', () => {
  const terminated = (reason: string, identity = 'history-service') => {
    const run = new AgentRunHistory().turn();
    run.history.terminated(reason, identity);
    return incidentsOf(run.loaded());
  };

  it('labels a termination by the history-size limit history-size, and one by the count limit history-count', () => {
    expect(terminated('Workflow history size exceeds limit.')).toEqual(['history-size']);
    expect(terminated('Workflow history count exceeds limit.')).toEqual(['history-count']);
  });

  it('labels a PAYLOADS_TOO_LARGE task failure tmprl1103, and a run that completed or was stopped by longrun nothing', () => {
    const looped = new AgentRunHistory().turn();
    looped.history.workflowTaskFailed('PAYLOADS_TOO_LARGE');
    expect(incidentsOf(looped.loaded())).toEqual(['tmprl1103']);
    expect(incidentsOf(new AgentRunHistory().turn().complete().loaded())).toEqual([]);
    expect(terminated('longrun stopped the run after its timeout of 60 s', 'longrun')).toEqual([]);
  });
});
