import { describe, expect, it } from 'vitest';
import { checkRun } from '../index.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';
import { scheduledOf } from '../testing/storage-reference.ts';

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

  it('passes a ContinueAsNew under the budget once the history reached half its count or size limit, and fails one just under half', () => {
    const run = new AgentRunHistory().turns(3).continueAsNew().turn().complete();
    const events = run.executions[0]?.toJson().events.length ?? 0;
    const judged = (limits: { historyCountLimit?: number; historySizeLimitBytes?: number }) =>
      resultOf(run, 'history.continue-as-new', { historyCountLimit: 1e9, historySizeLimitBytes: 1e12, ...limits });
    const byCount = judged({ historyCountLimit: events * 2 });
    expect(byCount.status).toBe('pass');
    expect(byCount.evidence[0]).toMatch(
      new RegExp(
        `^execution 1: [\\d,]+ request bytes, under the budget [\\d,]+; the history reached half a limit \\(${events} events, [\\d,]+ payload bytes\\); continued as new at execution 1 event ${events}$`,
      ),
    );
    expect(judged({ historyCountLimit: events * 2 + 1 }).evidence[0]).toMatch(
      /: ContinueAsNew after [\d,]+ request bytes, not over the budget/,
    );
    // The payload bytes of execution 1, as the note states them: half the size limit, to the byte.
    const size = Number(/, ([\d,]+) payload bytes\)/.exec(byCount.evidence[0] ?? '')?.[1]?.replaceAll(',', ''));
    expect(size).toBeGreaterThan(10_000);
    expect(judged({ historySizeLimitBytes: size * 2 }).status).toBe('pass');
    expect(judged({ historySizeLimitBytes: size * 2 + 1 }).status).toBe('fail');
  });

  it('is not applicable to an execution the server told to continue as new that completed instead', () => {
    const run = new AgentRunHistory().turns(3);
    run.history.workflowTask({ suggestContinueAsNew: true });
    const result = resultOf(run.complete(), 'history.continue-as-new');
    expect(result.status).toBe('not-applicable');
    expect(result.evidence[0]).toMatch(/; the server suggested ContinueAsNew at event \d+ \(\d+ events\); ended completed$/);
  });

  it('does not judge a ContinueAsNew under the budget early where a call_model input cannot be read', () => {
    const run = new AgentRunHistory().turns(3).continueAsNew().turn().complete();
    const histories = structuredClone(run.histories());
    // Encrypted by a payload codec: the checks cannot read it without the codec.
    const encrypted = { payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }] };
    (scheduledOf(histories[0] as never, 'call_model')[1] as { input: unknown }).input = encrypted;
    const result = checkRun(histories).results.find((r) => r.id === 'history.continue-as-new');
    expect(result?.status).toBe('not-applicable');
    expect(result?.evidence[0]).toMatch(
      /^execution 1: [\d,]+ request bytes \(1 call_model inputs unreadable\), under the budget [\d,]+; continued as new at execution 1 event \d+$/,
    );
    // The bytes counted are the readable requests': the unreadable one adds none.
    const readable = resultOf(run, 'history.continue-as-new').evidence;
    expect(readable[0]).toMatch(/ContinueAsNew after ([\d,]+) request bytes/);
    const all = Number(/after ([\d,]+) request bytes/.exec(readable[0] ?? '')?.[1]?.replaceAll(',', ''));
    const counted = Number(/^execution 1: ([\d,]+) request bytes/.exec(result?.evidence[0] ?? '')?.[1]?.replaceAll(',', ''));
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThan(all);
  });
});
