import { describe, expect, it } from 'vitest';
import type { HistoryBuilder } from '../testing/history-builder.ts';
import { AgentRunHistory, resultOf } from '../testing/index.ts';

describe('can.clean-boundary', () => {
  it('passes a ContinueAsNew with nothing pending', () => {
    const run = new AgentRunHistory().turns(2).continueAsNew().turn().complete();
    expect(resultOf(run, 'can.clean-boundary')).toMatchObject({
      status: 'pass',
      evidence: [expect.stringMatching(/^execution 1 event \d+: ContinueAsNew with nothing pending$/)],
    });
  });

  it('fails a ContinueAsNew with an activity, a timer and a child still pending', () => {
    let activity = 0;
    let timer = 0;
    let child = 0;
    const run = new AgentRunHistory().turns(2).continueAsNew({
      before: (history) => {
        history.workflowTask();
        activity = history.activityScheduled('journal.append', { events: [] });
        timer = history.timerStarted();
        child = history.childStarted('indexer');
      },
    });
    const result = resultOf(run, 'can.clean-boundary');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toMatch(
      new RegExp(
        `ContinueAsNew with pending activity journal.append \\(event ${activity}\\), timer 1 \\(event ${timer}\\), child workflow indexer \\(event ${child}\\)$`,
      ),
    );
  });

  it('passes once the pending work closed before the boundary', () => {
    const run = new AgentRunHistory().turns(1).continueAsNew({
      before: (history) => {
        history.workflowTask();
        const started = history.timerStarted();
        history.timerFired(started, '1');
      },
    });
    expect(resultOf(run, 'can.clean-boundary').status).toBe('pass');
  });

  it('is not applicable without ContinueAsNew', () => {
    expect(resultOf(new AgentRunHistory().turn().complete(), 'can.clean-boundary').status).toBe('not-applicable');
  });
});

describe('can.clean-boundary, children and external requests', () => {
  const external = (history: HistoryBuilder, type: string) =>
    history.event(type, { namespace: 'default', workflowExecution: { workflowId: 'peer' }, workflowTaskCompletedEventId: '1' });

  it('fails a signal to another workflow still under way, and names the event', () => {
    let signal = 0;
    const run = new AgentRunHistory().turns(1).continueAsNew({
      before: (history) => {
        history.workflowTask();
        signal = external(history, 'SignalExternalWorkflowExecutionInitiated');
      },
    });
    const result = resultOf(run, 'can.clean-boundary');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toMatch(new RegExp(`with pending SignalExternalWorkflowExecutionInitiated \\(event ${signal}\\)$`));
  });

  it('passes once a child workflow and a signal to another workflow closed before the boundary', () => {
    const run = new AgentRunHistory().turns(1).continueAsNew({
      before: (history) => {
        history.workflowTask();
        const child = history.childStarted('indexer');
        const signal = external(history, 'SignalExternalWorkflowExecutionInitiated');
        history.event('ChildWorkflowExecutionCompleted', { initiatedEventId: String(child), workflowExecution: { workflowId: 'c' } });
        history.event('ExternalWorkflowExecutionSignaled', { initiatedEventId: String(signal), workflowExecution: { workflowId: 'peer' } });
      },
    });
    expect(resultOf(run, 'can.clean-boundary').status).toBe('pass');
  });
});
