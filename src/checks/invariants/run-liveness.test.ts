import { describe, expect, it } from 'vitest';
import { CONVERSATION_ENDED } from '../../contract/conversation-end.ts';
import { ACTIVITY } from '../../contract/kernel-api.ts';
import { checkRun } from '../index.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';
import { referencePayload, scheduledOf } from '../testing/storage-reference.ts';

const STOPPED = 'longrun stopped the run after its timeout of 30 s';

/** Fails `run` with `type` before its first turn; the failure's event id. */
function failedAtStart(run: AgentRunHistory, message: string, type: string): number {
  run.history.workflowTask();
  return run.history.failed(message, type);
}

describe('run.liveness', () => {
  it('passes a run that completed, and one that failed for a reason the contract names', () => {
    const done = resultOf(new AgentRunHistory().turn().complete(), 'run.liveness');
    expect(done.status).toBe('pass');
    expect(done.evidence[0]).toMatch(/completed$/);
    // SMALL_LIMITS' blob limit is 64,000 bytes: a 40,000-byte system prompt is past half of it, and no guard may elide it.
    const guarded = new AgentRunHistory({ limits: SMALL_LIMITS, systemPrompt: 'rules '.repeat(6_700) }).turn();
    guarded.history.failed('the request of turn 2 cannot be brought under the limit', 'PayloadGuard');
    const result = resultOf(guarded, 'run.liveness');
    expect(result.status).toBe('pass');
    expect(result.evidence[0]).toContain('failed with PayloadGuard, a reason the contract names');
  });

  it('fails a run its payload guard ended on a dialog that fits under half the blob limit, at the first turn or later', () => {
    const first = new AgentRunHistory({ limits: SMALL_LIMITS });
    const atStart = failedAtStart(first, 'the request of turn 1 cannot be brought under the limit', 'PayloadGuard');
    const start = resultOf(first, 'run.liveness');
    expect(start.status).toBe('fail');
    expect(start.evidence[0]).toMatch(
      new RegExp(
        `^event ${atStart}: failed with PayloadGuard \\(no payload under the blob limit\\), but its dialog of [0-9,]+ bytes is [0-9,]+ with every tool output and screenshot elided, under half the blob limit 64,000$`,
      ),
    );
    const later = new AgentRunHistory({ limits: SMALL_LIMITS }).turn({ tools: [20_000] });
    later.history.failed('the request of turn 2 cannot be brought under the limit', 'PayloadGuard');
    expect(resultOf(later, 'run.liveness').evidence[0]).toMatch(/its dialog of 2[0-9],[0-9]{3} bytes is [0-9,]+ with every tool output/);
  });

  it('fails a run its payload guard ended where eliding its tool outputs and screenshots would have fit', () => {
    const screenshot = { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(30_000)}` } } as const;
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turn({ tools: [30_000] }).turn({ tools: [[screenshot]] });
    run.history.failed('the request of turn 3 cannot be brought under the limit', 'PayloadGuard');
    const result = resultOf(run, 'run.liveness');
    expect(result.status).toBe('fail');
    const [, dialog, floor] = /its dialog of ([0-9,]+) bytes is ([0-9,]+) with/.exec(result.evidence[0] ?? '') ?? [];
    expect(Number(dialog?.replaceAll(',', ''))).toBeGreaterThan(60_000);
    expect(Number(floor?.replaceAll(',', ''))).toBeLessThan(5_000);
  });

  it('fails a run refused at an input every kernel must take, and passes one refused at a bad input', () => {
    const valid = new AgentRunHistory({ limits: SMALL_LIMITS });
    const refused = failedAtStart(valid, 'limits.tailMaxBytes must be a positive integer, got 12000', 'InvalidRunInput');
    const result = resultOf(valid, 'run.liveness');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe(`event ${refused}: failed with InvalidRunInput, but its input is a RunInput every kernel must take`);
    const invalid = new AgentRunHistory({ maxTurns: 0 });
    failedAtStart(invalid, 'maxTurns must be an integer >= 1, got 0', 'InvalidRunInput');
    expect(resultOf(invalid, 'run.liveness').evidence[0]).toMatch(/failed with InvalidRunInput, a reason the contract names$/);
  });

  it('fails a run that failed for a reason the contract does not name', () => {
    const run = new AgentRunHistory().turn();
    const failed = run.history.failed('Cannot read properties of undefined', 'TypeError');
    const result = resultOf(run, 'run.liveness');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe(`event ${failed}: failed for a reason the contract does not name: Cannot read properties of undefined`);
  });

  it('fails a run still open, and says what it was waiting for', () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTask();
    const pending = run.history.activityScheduled(ACTIVITY.compactContext, { turn: 2 });
    const result = resultOf(run, 'run.liveness');
    expect(result.status).toBe('fail');
    expect(result.evidence).toEqual([
      `event ${pending}: the run has not ended (its last execution is still open)`,
      `event ${pending}: kernel.compact_context was scheduled and never closed (attempts without bound, no schedule-to-close)`,
    ]);
  });

  it('fails a run that had to be stopped, naming the activity that retried without end', () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTask();
    const pending = run.history.activityScheduled(ACTIVITY.compactContext, { turn: 2 });
    const terminated = run.history.terminated(STOPPED, 'longrun');
    const result = resultOf(run, 'run.liveness');
    expect(result.status).toBe('fail');
    expect(result.evidence).toEqual([
      `event ${terminated}: terminated by "longrun": "${STOPPED}" (the run did not end by itself)`,
      `event ${pending}: kernel.compact_context was scheduled and never closed (attempts without bound, no schedule-to-close)`,
    ]);
  });

  it("passes a chat agent's run longrun ended after its last message while it was idle, and fails one ended while busy", () => {
    const ended = `${CONVERSATION_ENDED} (3 messages)`;
    const idle = new AgentRunHistory().turn();
    idle.history.workflowTask();
    const end = idle.history.terminated(ended, 'longrun');
    expect(resultOf(idle, 'run.liveness')).toMatchObject({
      status: 'pass',
      evidence: [`event ${end}: ${ended} (the agent was idle: every message answered)`],
    });
    const busy = new AgentRunHistory().turn();
    busy.history.workflowTask();
    const open = busy.history.activityScheduled(ACTIVITY.callModel, { turn: 2 });
    busy.history.event('WorkflowExecutionUpdateAccepted', { protocolInstanceId: 'message-2' });
    busy.history.terminated(ended, 'longrun');
    const result = resultOf(busy, 'run.liveness');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toMatch(
      new RegExp(`, but the agent was not idle: event ${open}: call_model was still open; 1 accepted update\\(s\\) not answered$`),
    );
  });

  it('fails a run whose last workflow task failed in a loop', () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTaskFailed('PAYLOADS_TOO_LARGE', 'payload too large', 1);
    const last = run.history.workflowTaskFailed('PAYLOADS_TOO_LARGE', 'payload too large', 2);
    run.history.terminated('longrun stopped a workflow task retry loop (attempt 3)', 'longrun');
    const result = resultOf(run, 'run.liveness');
    expect(result.status).toBe('fail');
    expect(result.evidence[1]).toBe(
      `event ${last}: a workflow task failed (PAYLOADS_TOO_LARGE: payload too large) and none completed after it`,
    );
  });

  it.each([
    ['timed out', (run: AgentRunHistory) => run.history.event('WorkflowExecutionTimedOut', { retryState: 'RETRY_STATE_TIMEOUT' })],
    ['canceled', (run: AgentRunHistory) => run.history.event('WorkflowExecutionCanceled', {})],
  ])('fails a run that %s', (what, end) => {
    const run = new AgentRunHistory().turn();
    const id = end(run);
    const result = resultOf(run, 'run.liveness');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe(`event ${id}: ${what} (the run did not end by itself)`);
  });

  it('fails an activity past its maximum attempts or its schedule-to-close', () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTask();
    const retried = run.history.activityScheduled(ACTIVITY.runTool, { turn: 2 }, { maximumAttempts: 3 });
    run.history.activityStarted(retried, 4);
    run.history.workflowTask();
    // The builder's events are one second apart: this one closes 2 s after it was scheduled.
    const slow = run.history.activityScheduled(ACTIVITY.runTool, { turn: 2 }, { scheduleToCloseSeconds: 1 });
    run.history.activityCompleted(slow, { tool_call_id: 'x', content: 'ok' });
    run.complete();
    const result = resultOf(run, 'run.liveness');
    expect(result.status).toBe('fail');
    expect(result.evidence).toEqual([
      `event ${retried}: run_tool ran attempt 4, past its maximum of 3`,
      `event ${slow}: run_tool was open 2.0 s, past its schedule-to-close of 1.0 s`,
      expect.stringMatching(/completed$/),
    ]);
  });

  it('fails executions that continue as new without completing a turn, counting a long chain', () => {
    const run = new AgentRunHistory().turns(2);
    for (let i = 0; i < 5; i++) run.continueAsNew();
    run.complete();
    const result = resultOf(run, 'run.liveness');
    expect(result.status).toBe('fail');
    expect(result.evidence.slice(0, 4)).toEqual([
      expect.stringMatching(/^execution 2 event \d+: continued as new without completing a turn$/),
      expect.stringMatching(/^execution 3 event \d+: /),
      expect.stringMatching(/^execution 4 event \d+: /),
      '4 of 6 executions continued as new without completing a turn',
    ]);
    expect(resultOf(new AgentRunHistory().turns(2).continueAsNew().turn().complete(), 'run.liveness').status).toBe('pass');
  });

  it('fails a run that took longer than its timeout', () => {
    const run = new AgentRunHistory().turn().complete();
    const events = run.history.lastEventId;
    expect(resultOf(run, 'run.liveness', { runTimeoutMs: events * 1000 }).status).toBe('pass');
    const result = resultOf(run, 'run.liveness', { runTimeoutMs: 5_000 });
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe(`the run took ${(events - 1).toFixed(1)} s, past its timeout of 5.0 s`);
  });
});

describe('run.liveness: the edges of each rule', () => {
  const liveness = (run: AgentRunHistory, ctx?: Parameters<typeof resultOf>[2]) => resultOf(run, 'run.liveness', ctx);
  /** A run over SMALL_LIMITS' compaction trigger, its tool outputs large enough to elide. */
  const overTrigger = (): AgentRunHistory => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS });
    while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn({ tools: [3000] });
    return run;
  };

  it('takes the rebuild as the guard found it after an accepted compaction, and judges the dialog after a failed one', () => {
    const accepted = overTrigger().compact();
    accepted.history.failed('the request cannot be brought under the limit', 'PayloadGuard');
    expect(liveness(accepted).status).toBe('pass');
    const failed = overTrigger().compact({ outcome: 'failed' });
    failed.history.failed('the request cannot be brought under the limit', 'PayloadGuard');
    expect(liveness(failed).evidence[0]).toMatch(/failed with PayloadGuard \(no payload under the blob limit\), but its dialog/);
  });

  it('fails a history set whose last execution continued as new and has no execution after it', () => {
    const histories = new AgentRunHistory().turns(2).continueAsNew().turn().histories();
    const result = checkRun(histories.slice(0, 1)).results.find((r) => r.id === 'run.liveness');
    expect(result?.status).toBe('fail');
    expect(result?.evidence[0]).toMatch(/^event \d+: the last execution continued as new, and no execution follows it$/);
  });

  it("fails a chat agent's run ended while a workflow task was failing or not yet completed, and passes one whose updates were answered", () => {
    const ended = `${CONVERSATION_ENDED} (2 messages)`;
    const failing = new AgentRunHistory().turn();
    const task = failing.history.workflowTaskFailed('NONDETERMINISTIC_ERROR', 'nondeterminism', 1);
    failing.history.terminated(ended, 'longrun');
    expect(liveness(failing).evidence[0]).toMatch(
      new RegExp(`but the agent was not idle: event ${task}: its workflow task was not completed$`),
    );
    const running = new AgentRunHistory().turn();
    const scheduled = running.history.event('WorkflowTaskScheduled', { taskQueue: 'q', attempt: 1 });
    const started = running.history.event('WorkflowTaskStarted', { scheduledEventId: String(scheduled), identity: 'w' });
    running.history.terminated(ended, 'longrun');
    expect(liveness(running).evidence[0]).toMatch(
      new RegExp(`but the agent was not idle: event ${started}: its workflow task was not completed$`),
    );
    const answered = new AgentRunHistory().turn();
    answered.history.event('WorkflowExecutionUpdateAccepted', { protocolInstanceId: 'message-2' });
    answered.history.event('WorkflowExecutionUpdateCompleted', { meta: { updateId: 'message-2' } });
    answered.history.workflowTask();
    answered.history.terminated(ended, 'longrun');
    expect(liveness(answered).status).toBe('pass');
  });

  it('names a failed workflow task as the stall only when no task completed after it and the server did not force it closed', () => {
    const stalled = (play: (run: AgentRunHistory) => void) => {
      const run = new AgentRunHistory().turn();
      play(run);
      run.history.terminated(STOPPED, 'longrun');
      return liveness(run).evidence;
    };
    const retrying = stalled((run) => {
      run.history.workflowTaskFailed('PAYLOADS_TOO_LARGE', 'payload too large');
      run.history.event('WorkflowTaskScheduled', { taskQueue: 'q', attempt: 2 });
    });
    expect(retrying[1]).toMatch(/a workflow task failed \(PAYLOADS_TOO_LARGE: payload too large\) and none completed after it$/);
    const recovered = stalled((run) => {
      run.history.workflowTaskFailed('PAYLOADS_TOO_LARGE', 'payload too large');
      run.history.workflowTask();
    });
    expect(recovered).toHaveLength(1);
    const forceClosed = stalled((run) => run.history.workflowTaskFailed('FORCE_CLOSE_COMMAND', 'force closed'));
    expect(forceClosed).toHaveLength(1);
  });

  it("names a stalled activity's retry bounds", () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTask();
    const pending = run.history.activityScheduled(ACTIVITY.runTool, { turn: 2 }, { maximumAttempts: 5, scheduleToCloseSeconds: 600 });
    run.history.terminated(STOPPED, 'longrun');
    expect(liveness(run).evidence[1]).toBe(
      `event ${pending}: run_tool was scheduled and never closed (at most 5 attempts, schedule-to-close 600.0 s)`,
    );
  });

  it('takes an activity at exactly its maximum attempts or its schedule-to-close, and measures one still open to the last event', () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTask();
    const atMax = run.history.activityScheduled(ACTIVITY.runTool, { turn: 2 }, { maximumAttempts: 3 });
    run.history.activityStarted(atMax, 3);
    run.history.workflowTask();
    // The builder's events are one second apart: each closes 2 s after it was scheduled.
    const atBound = run.history.activityScheduled(ACTIVITY.runTool, { turn: 2 }, { scheduleToCloseSeconds: 2 });
    run.history.activityCompleted(atBound, { tool_call_id: 'x', content: 'ok' });
    const within = run.history.activityScheduled(ACTIVITY.runTool, { turn: 2 }, { scheduleToCloseSeconds: 600 });
    run.history.activityCompleted(within, { tool_call_id: 'y', content: 'ok' });
    const open = run.history.activityScheduled(ACTIVITY.runTool, { turn: 2 }, { scheduleToCloseSeconds: 2 });
    for (let i = 0; i < 3; i++) run.history.timerStarted();
    const evidence = liveness(run).evidence;
    expect(evidence.filter((line) => line.includes('past its'))).toEqual([
      `event ${open}: run_tool was open 3.0 s, past its schedule-to-close of 2.0 s`,
    ]);
  });

  it('lists three executions that continued as new without a turn one by one, without the count', () => {
    const run = new AgentRunHistory().turns(2);
    for (let i = 0; i < 4; i++) run.continueAsNew();
    const evidence = liveness(run.complete()).evidence;
    expect(evidence.filter((line) => line.includes('without completing a turn'))).toHaveLength(3);
  });

  it('counts an execution whose only model call failed as one without a turn', () => {
    const run = new AgentRunHistory().turns(2).continueAsNew();
    run.history.workflowTask();
    run.history.activityFailed(run.history.activityScheduled(ACTIVITY.callModel, { turn: 3 }), 'model down', 'HttpUnavailable');
    run.continueAsNew().turn().complete();
    expect(liveness(run).evidence[0]).toMatch(/^execution 2 event \d+: continued as new without completing a turn$/);
  });

  it('passes a run that took exactly its timeout', () => {
    const run = new AgentRunHistory().turn().complete();
    expect(liveness(run, { runTimeoutMs: (run.history.lastEventId - 1) * 1000 }).status).toBe('pass');
  });

  it("fails a guard's failure on a dialog whose floor is exactly half the blob limit, and passes it a byte under half", () => {
    const run = new AgentRunHistory().turn({ tools: [20_000] });
    run.history.failed('the request of turn 2 cannot be brought under the limit', 'PayloadGuard');
    const limited = (blobLimitBytes: number) => resultOf(run, 'run.liveness', { limits: { blobLimitBytes } });
    const floor = Number(/ is ([0-9,]+) with every tool output/.exec(limited(64_000).evidence[0] ?? '')?.[1]?.replaceAll(',', ''));
    expect(floor).toBeGreaterThan(0);
    expect(limited(floor * 2).status).toBe('fail');
    expect(limited(floor * 2 - 1)).toMatchObject({
      status: 'pass',
      evidence: [expect.stringMatching(/failed with PayloadGuard, a reason the contract names$/)],
    });
  });

  it("takes the guard's reason as given where the last model call's input cannot be read (the dialog is unknown)", () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turn({ tools: [20_000] });
    run.history.failed('the request of turn 2 cannot be brought under the limit', 'PayloadGuard');
    const histories = structuredClone(run.histories());
    // Encrypted by a payload codec: the checks cannot read it without the codec.
    const encrypted = { payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }] };
    (scheduledOf(histories[0] as never, ACTIVITY.callModel).at(-1) as { input: unknown }).input = encrypted;
    expect(resultOf(run, 'run.liveness').status).toBe('fail');
    expect(checkRun(histories).results.find((r) => r.id === 'run.liveness')).toMatchObject({
      status: 'pass',
      evidence: [expect.stringMatching(/failed with PayloadGuard, a reason the contract names$/)],
    });
  });

  it('sets aside a refused input where payloads it reads were offloaded and not read, and says so', () => {
    // Refused at a resumed input (a kernel may refuse a resume): a reason the contract names.
    const run = new AgentRunHistory().turn().continueAsNew();
    const refused = failedAtStart(run, 'resume.counters.turns must be an integer >= 0', 'InvalidRunInput');
    expect(resultOf(run, 'run.liveness').evidence).toEqual([
      `execution 2 event ${refused}: failed with InvalidRunInput, a reason the contract names`,
    ]);
    // Execution 1's model call offloaded to a store the checks were not given: whether the reason was true is not judged.
    const histories = structuredClone(run.histories());
    (scheduledOf(histories[0] as never, ACTIVITY.callModel)[0] as { input: unknown }).input = {
      payloads: [referencePayload('aws.s3driver', 'v0/d/sha256/ab12', 40_000)],
    };
    expect(checkRun(histories).results.find((r) => r.id === 'run.liveness')).toMatchObject({
      status: 'pass',
      evidence: [
        `execution 2 event ${refused}: failed with InvalidRunInput, a reason the contract names (whether it was true is not judged: payloads offloaded to External Storage were not read)`,
      ],
    });
  });
});
