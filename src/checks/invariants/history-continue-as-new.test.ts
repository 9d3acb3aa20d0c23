import { describe, expect, it } from 'vitest';
import { checkRun } from '../index.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';

describe('history.continue-as-new', () => {
  it('passes a run that continues as new once each execution has sent its budget', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).play(30).complete();
    expect(run.executions.length).toBeGreaterThan(1);
    const result = resultOf(run, 'history.continue-as-new');
    expect(result.status).toBe('pass');
    expect(result.evidence[0]).toMatch(
      /^execution 1 event \d+: accumulated request bytes [\d,]+ > budget 150,000; ContinueAsNew at execution 1 event \d+$/,
    );
  });

  it('fails a run that goes on sending requests after passing the budget', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(16);
    const result = resultOf(run, 'history.continue-as-new');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toMatch(/^event \d+: accumulated request bytes [\d,]+ > budget 150,000, yet \d+ more call_model followed/);
  });

  it('allows the grace turns the context gives, and no more', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(14);
    const passed = resultOf(run, 'history.continue-as-new').evidence[0] ?? '';
    const after = Number(/yet (\d+) more/.exec(passed)?.[1]);
    expect(resultOf(run, 'history.continue-as-new', { continueAsNewGraceTurns: after }).status).toBe('pass');
    expect(resultOf(run, 'history.continue-as-new', { continueAsNewGraceTurns: after - 1 }).status).toBe('fail');
  });

  it('fails when the execution ends otherwise after passing the budget, or reaches a history limit', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(12);
    run.history.terminated('Workflow history size exceeds limit.', 'history-service');
    expect(resultOf(run, 'history.continue-as-new').evidence).toEqual(
      expect.arrayContaining([expect.stringMatching(/yet the execution ended terminated at event \d+, not ContinueAsNew/)]),
    );
    const small = new AgentRunHistory().turns(3);
    const result = resultOf(small, 'history.continue-as-new', { historySizeLimitBytes: 10_000, historyCountLimit: 40 });
    expect(result.evidence).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^execution 1: history reached [\d,]+ bytes >= history size limit 10,000$/),
        expect.stringMatching(/^execution 1: \d+ events >= history count limit 40$/),
      ]),
    );
  });

  it("judges each limit at its exact value, and the history's size by the server's own count where it is larger", () => {
    const run = new AgentRunHistory().turns(3);
    const [history] = run.histories() as { events: Record<string, unknown>[] }[];
    const events = history?.events.length ?? 0;
    const lines = (limits: { historySizeLimitBytes?: number; historyCountLimit?: number }) =>
      resultOf(run, 'history.continue-as-new', { historySizeLimitBytes: 1e9, historyCountLimit: 1e9, ...limits }).evidence.filter((line) =>
        / >= history (size|count) limit/.test(line),
      );
    expect(lines({ historyCountLimit: events })).toEqual([`execution 1: ${events} events >= history count limit ${events}`]);
    expect(lines({ historyCountLimit: events + 1 })).toEqual([]);
    const size = Number(/reached ([\d,]+) bytes/.exec(lines({ historySizeLimitBytes: 1 })[0] ?? '')?.[1]?.replaceAll(',', ''));
    expect(lines({ historySizeLimitBytes: size })).toHaveLength(1);
    expect(lines({ historySizeLimitBytes: size + 1 })).toEqual([]);
    // The server counts what the payloads leave out (the events' own fields): its larger figure is the size.
    const started = history?.events.filter((event) => event.workflowTaskStartedEventAttributes).at(-1);
    (started?.workflowTaskStartedEventAttributes as Record<string, unknown>).historySizeBytes = String(size * 3);
    const counted = checkRun([history as never], { historySizeLimitBytes: size + 1, historyCountLimit: 1e9 }).results.find(
      (r) => r.id === 'history.continue-as-new',
    );
    expect(counted?.evidence).toContainEqual(
      `execution 1: history reached ${(size * 3).toLocaleString('en-US')} bytes >= history size limit ${(size + 1).toLocaleString('en-US')}`,
    );
  });

  it('fails an execution the server terminated for its event count, though fewer events than the limit came back', () => {
    const run = new AgentRunHistory().turns(3);
    run.history.workflowTask({ suggestContinueAsNew: true });
    const terminated = run.history.terminated('Workflow history count exceeds limit.', 'history-service');
    const result = resultOf(run, 'history.continue-as-new');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe(`execution 1: terminated by the history-count limit at event ${terminated} (${terminated} events)`);
  });

  it('passes a ContinueAsNew under the budget that follows the server suggesting it', () => {
    const run = new AgentRunHistory().turns(3);
    const suggested = run.history.workflowTask({ suggestContinueAsNew: true }) - 1;
    run.continueAsNew().turn().complete();
    const result = resultOf(run, 'history.continue-as-new');
    expect(result.status).toBe('pass');
    expect(result.evidence[0]).toMatch(
      new RegExp(
        `^execution 1: [\\d,]+ request bytes, under the budget [\\d,]+; the server suggested ContinueAsNew at execution 1 event ${suggested} \\(${suggested} events\\); continued as new at execution 1 event \\d+$`,
      ),
    );
  });

  it('judges the budget at the exact byte: ContinueAsNew at the budget fails, one byte over it passes', () => {
    const sent = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(4).executionRequestBytes;
    const atBudget = new AgentRunHistory({ limits: { ...SMALL_LIMITS, continueAsNewBytes: sent } }).turns(4).continueAsNew().turns(2);
    const early = resultOf(atBudget, 'history.continue-as-new');
    expect(early.status).toBe('fail');
    expect(early.evidence).toContainEqual(
      `execution 1 event ${atBudget.executions[0]?.toJson().events.length}: ContinueAsNew after ${sent.toLocaleString('en-US')} request bytes, not over the budget ${sent.toLocaleString('en-US')}`,
    );
    const overBudget = new AgentRunHistory({ limits: { ...SMALL_LIMITS, continueAsNewBytes: sent - 1 } }).turns(4).continueAsNew().turns(2);
    expect(resultOf(overBudget, 'history.continue-as-new').status).toBe('pass');
  });

  it('fails a resumed execution that goes on past its budget (the budget judged in every execution)', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS });
    while (run.executions.length < 2) run.play(1);
    run.turns(16);
    const result = resultOf(run, 'history.continue-as-new');
    expect(result.status).toBe('fail');
    expect(result.evidence).toContainEqual(
      expect.stringMatching(/^execution 2 event \d+: accumulated request bytes [\d,]+ > budget 150,000, yet \d+ more call_model followed/),
    );
  });

  it('is not applicable when no execution passes the budget', () => {
    expect(resultOf(new AgentRunHistory().turns(3).complete(), 'history.continue-as-new').status).toBe('not-applicable');
  });
});
