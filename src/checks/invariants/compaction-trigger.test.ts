import { describe, expect, it } from 'vitest';
import { COMPACTION_PATCH_ID } from '../../contract/limits.ts';
import type { Message } from '../../contract/messages.ts';
import { checkRun } from '../index.ts';
import { DIGEST_ONLY_MAPPING } from '../testing/digest-only-mapping.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';
import { withUnreadableCall } from '../testing/unreadable-call.ts';

/** Turns until the next request would pass the trigger. */
function upToTrigger(run: AgentRunHistory): AgentRunHistory {
  while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
  return run;
}

describe('compaction.trigger', () => {
  it('passes when compaction starts at the first boundary over the trigger', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).play(26).complete();
    const result = resultOf(run, 'compaction.trigger');
    expect(result.status).toBe('pass');
    expect(result.evidence.at(-1)).toMatch(/^\d+ accepted compactions; largest request [\d,]+ bytes \(trigger 20,000\)$/);
  });

  it('fails when a request over the trigger is sent without a compaction attempt (one boundary late)', () => {
    const run = upToTrigger(new AgentRunHistory({ limits: SMALL_LIMITS }));
    run.turn().compact().turn();
    const result = resultOf(run, 'compaction.trigger');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toMatch(
      /^event \d+: call_model turn \d+ request [\d,]+ bytes > trigger 20,000 with no compaction attempt before it$/,
    );
  });

  it('judges a compaction by the dialog the kernel held, not by a compaction input it elided to fit', () => {
    const elided = (dialog: Message[]) =>
      dialog.map((m) => (m.role === 'tool' ? ({ ...m, content: '[elided: tool output, 2,000 bytes]' } as Message) : m));
    const run = upToTrigger(new AgentRunHistory({ limits: SMALL_LIMITS }));
    expect(Buffer.byteLength(JSON.stringify(elided(run.request().messages)))).toBeLessThan(run.limits.compactionTriggerBytes);
    expect(resultOf(run.compact({ sent: elided }).turn().complete(), 'compaction.trigger').status).toBe('pass');
    // Elided or not, a compaction before the trigger is still one.
    const early = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(3).compact({ sent: elided }).turn();
    expect(resultOf(early, 'compaction.trigger').status).toBe('fail');
  });

  it('fails when compaction is attempted before the request passes the trigger', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(3).compact().turn();
    expect(resultOf(run, 'compaction.trigger').evidence[0]).toMatch(
      /^event \d+: compaction at turn 4 when the request was [\d,]+ bytes <= trigger 20,000$/,
    );
  });

  it('judges the trigger at the exact byte: a request at the trigger must not compact, one byte over it must', () => {
    const fifth = Buffer.byteLength(JSON.stringify(new AgentRunHistory().turns(4).request()));
    const withTrigger = (trigger: number) => new AgentRunHistory({ limits: { ...SMALL_LIMITS, compactionTriggerBytes: trigger } }).turns(4);
    const status = (run: AgentRunHistory) => resultOf(run, 'compaction.trigger').status;
    // At the trigger: sent without compaction (the next boundary, past it, compacts).
    expect(status(withTrigger(fifth).turn().compact().turn())).toBe('pass');
    expect(resultOf(withTrigger(fifth).compact().turn(), 'compaction.trigger').evidence[0]).toMatch(
      new RegExp(
        `compaction at turn 5 when the request was ${fifth.toLocaleString('en-US')} bytes <= trigger ${fifth.toLocaleString('en-US')}$`,
      ),
    );
    // One byte over: compacts first.
    expect(
      status(
        withTrigger(fifth - 1)
          .compact()
          .turn(),
      ),
    ).toBe('pass');
    expect(resultOf(withTrigger(fifth - 1).turn(), 'compaction.trigger').evidence[0]).toMatch(
      new RegExp(
        `call_model turn 5 request ${fifth.toLocaleString('en-US')} bytes > trigger ${(fifth - 1).toLocaleString('en-US')} with no`,
      ),
    );
  });

  it('fails a failed compaction attempted under the trigger too, and judges the boundary from the dialog', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(2).compact({ outcome: 'failed' }).turn();
    expect(resultOf(run, 'compaction.trigger').status).toBe('fail');
  });

  it('fails compaction without the gate (the ungated control)', () => {
    const run = upToTrigger(new AgentRunHistory({ limits: SMALL_LIMITS, gate: false }));
    run.compact().turn();
    expect(resultOf(run, 'compaction.trigger').evidence[0]).toMatch(
      /compaction at turn \d+ scheduled before the gate context-compaction opened$/,
    );
  });

  it('is not applicable to a run whose gate never opened (v0), or whose requests stay under the trigger', () => {
    const v0 = upToTrigger(new AgentRunHistory({ limits: SMALL_LIMITS, gate: false })).turns(3);
    expect(resultOf(v0, 'compaction.trigger')).toMatchObject({
      status: 'not-applicable',
      evidence: ['the gate context-compaction never opened'],
    });
    const short = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(2);
    expect(resultOf(short, 'compaction.trigger').evidence).toEqual([
      expect.stringMatching(/^requests never passed the trigger 20,000 \(largest [\d,]+ bytes\)$/),
    ]);
  });

  it('does not judge a turn whose call_model input it cannot read, and judges the others', () => {
    const run = upToTrigger(new AgentRunHistory({ limits: SMALL_LIMITS }))
      .compact()
      .turn();
    const calls = run.turnNumber;
    const judged = (histories: object[]) => checkRun(histories as never).results.find((r) => r.id === 'compaction.trigger');
    // The turn before the compaction unread: noted, and the compaction still judged.
    const result = judged(withUnreadableCall(run, calls - 2));
    expect(result?.status).toBe('pass');
    expect(result?.evidence[0]).toMatch(
      new RegExp(`^event \\d+: call_model input unreadable, turn #${calls - 1} of execution 1 not judged$`),
    );
    // The only turn over the trigger, sent without compaction, unread: nothing to fail it on.
    const late = upToTrigger(new AgentRunHistory({ limits: SMALL_LIMITS })).turn();
    expect(judged(withUnreadableCall(late, late.turnNumber - 1))?.status).toBe('not-applicable');
  });

  describe('a kernel that sends compaction only a digest (the boundary read off the dialog the history holds)', () => {
    const judged = (run: AgentRunHistory) =>
      checkRun(run.histories() as never, { mapping: DIGEST_ONLY_MAPPING }).results.find((r) => r.id === 'compaction.trigger');

    it('notes a boundary it cannot establish (a tool whose result the history lacks) and fails nothing there', () => {
      const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(2).turn({ failedTools: [0] });
      const result = judged(run.compact().turn());
      expect(result?.status).toBe('pass');
      expect(result?.evidence[0]).toMatch(/^event \d+: compaction at turn \d+: the request at the boundary cannot be established$/);
    });

    it('judges a compaction at the end of an execution by the dialog the execution ended with', () => {
      const early = judged(new AgentRunHistory({ limits: SMALL_LIMITS }).turns(3).compact().continueAsNew().turn());
      expect(early?.status).toBe('fail');
      expect(early?.evidence[0]).toMatch(/compaction at the end of the execution when the request was [\d,]+ bytes <= trigger 20,000$/);
      const due = upToTrigger(new AgentRunHistory({ limits: SMALL_LIMITS }))
        .compact()
        .continueAsNew()
        .turn();
      expect(judged(due)?.status).toBe('pass');
    });
  });

  it('opens the gate at the marker when a newer binary took over mid-execution (gateOpens: at-marker)', () => {
    const run = upToTrigger(new AgentRunHistory({ limits: SMALL_LIMITS, gate: false })).turns(2);
    run.history.workflowTask();
    run.history.patchMarker(COMPACTION_PATCH_ID);
    run.compact().turn();
    expect(resultOf(run, 'compaction.trigger').status).toBe('fail');
    expect(resultOf(run, 'compaction.trigger', { gateOpens: 'at-marker' }).status).toBe('pass');
  });
});
