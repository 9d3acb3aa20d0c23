import { describe, expect, it } from 'vitest';
import { ACTIVITY } from '../../contract/kernel-api.ts';
import { checkRun } from '../index.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';

function overTrigger(): AgentRunHistory {
  const run = new AgentRunHistory({ limits: SMALL_LIMITS });
  while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
  return run;
}

describe('compaction.failure-continues', () => {
  it.each(['failed', 'timed-out', 'rejected'] as const)('passes when the run calls the model again after a %s compaction', (outcome) => {
    const run = overTrigger().compact({ outcome }).turn().compact().turn().complete();
    const result = resultOf(run, 'compaction.failure-continues');
    expect(result.status).toBe('pass');
    expect(result.evidence).toContainEqual(
      expect.stringMatching(/context\.compaction_failed \(turn \d+\); call_model again at event \d+$/),
    );
  });

  it('passes when the failure is journaled after the call of its own turn, the last one (v1 appends in the background)', () => {
    const run = overTrigger();
    const turn = run.turnNumber + 1;
    run.compact({ outcome: 'failed', journal: false }).turn({ final: true });
    run.journal('context.compaction_failed', { turn, reason: 'HttpUnavailable: compaction model unavailable' }, { turn });
    run.history.workflowTask();
    run.history.completed({ runId: run.input.runId, counters: run.counters, finalAnswer: 'done', ended: 'done' });
    const result = resultOf(run, 'compaction.failure-continues');
    expect(result.evidence).toContainEqual(
      expect.stringMatching(new RegExp(`context\\.compaction_failed \\(turn ${turn}\\); call_model again at event \\d+$`)),
    );
    expect(result.status).toBe('pass');
  });

  it("fails a failure record whose reason names none of the failure's types (the outer failure's message, say)", () => {
    const at = (reason: string) => resultOf(overTrigger().compact({ outcome: 'failed', reason }).turn(), 'compaction.failure-continues');
    expect(at('Activity task failed').evidence[0]).toMatch(
      /^event \d+: compact_context failed with HttpUnavailable; the journal's context\.compaction_failed of turn \d+ gives the reason "Activity task failed"$/,
    );
    expect(at('HttpUnavailable: compaction model unavailable').status).toBe('pass');
  });

  it('fails when the run ends failed because of the compaction (the compaction-fatal control)', () => {
    const run = overTrigger().compact({ outcome: 'failed' });
    run.history.workflowTask();
    const failed = run.history.failed('CompactionFailed: compaction model unavailable');
    const result = resultOf(run, 'compaction.failure-continues');
    expect(result.status).toBe('fail');
    expect(result.evidence).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`compact_context failed, then no call_model: the run ended failed at event ${failed}$`)),
        `event ${failed}: the run failed because of the compaction: CompactionFailed: compaction model unavailable`,
      ]),
    );
  });

  it('fails when a failed compaction is not journaled as context.compaction_failed', () => {
    const run = overTrigger().compact({ outcome: 'timed-out', journal: false }).turn();
    expect(resultOf(run, 'compaction.failure-continues').evidence[0]).toMatch(
      /^event \d+: compact_context timed-out but the journal has no context\.compaction_failed for turn \d+$/,
    );
  });

  it('fails when a compaction failed for a reason the contract does not name (the kernel threw a TypeError)', () => {
    const run = overTrigger().compact({ outcome: 'crashed' }).turn().complete();
    const result = resultOf(run, 'compaction.failure-continues');
    expect(result.status).toBe('fail');
    expect(result.evidence).toContainEqual(
      expect.stringMatching(
        /^event \d+: compact_context failed for a reason the contract does not name \(TypeError\): Cannot read properties of undefined/,
      ),
    );
  });

  it('fails a compaction scheduled with attempts without bound and no schedule-to-close (compaction-retries-forever)', () => {
    const run = overTrigger().compact({ unbounded: true }).turn().complete();
    expect(resultOf(run, 'compaction.failure-continues').evidence).toContainEqual(
      expect.stringMatching(/^event \d+: compact_context scheduled with attempts without bound and no schedule-to-close/),
    );
  });

  it("reads a schedule-to-close the server filled from the run's timeout as no bound, and takes a shorter one", () => {
    const verdict = (scheduleToClose: string, runTimeout: string | null = '120s') => {
      const histories = overTrigger().compact({ unbounded: true }).turn().complete().histories();
      const events = histories[0]?.events as { eventType: string; [key: string]: unknown }[];
      const started = events[0]?.workflowExecutionStartedEventAttributes as Record<string, unknown>;
      if (runTimeout) started.workflowExecutionTimeout = runTimeout;
      const compaction = events.find(
        (e) =>
          (e.activityTaskScheduledEventAttributes as { activityType?: { name: string } } | undefined)?.activityType?.name ===
          'kernel.compact_context',
      );
      (compaction?.activityTaskScheduledEventAttributes as Record<string, unknown>).scheduleToCloseTimeout = scheduleToClose;
      return checkRun(histories).results.find((r) => r.id === 'compaction.failure-continues');
    };
    expect(verdict('120s')).toMatchObject({
      status: 'fail',
      evidence: expect.arrayContaining([
        expect.stringMatching(/attempts without bound and no schedule-to-close short of the run's timeout/),
      ]),
    });
    expect(verdict('60s')?.status).toBe('not-applicable'); // bounded in time, and no compaction failed
    expect(verdict('60s', null)?.status).toBe('not-applicable'); // a run without a timeout: any schedule-to-close bounds it
  });

  it('is pending, not failed, while the run is still open', () => {
    const run = overTrigger().compact({ outcome: 'failed' });
    const result = resultOf(run, 'compaction.failure-continues');
    expect(result.status).toBe('pass');
    expect(result.evidence).toContainEqual(expect.stringMatching(/no call_model yet, the run is still open$/));
  });

  it('is not applicable when no compaction failed', () => {
    expect(resultOf(new AgentRunHistory().turn(), 'compaction.failure-continues')).toMatchObject({
      status: 'not-applicable',
      evidence: ['no compaction failed'],
    });
  });
});

describe('compaction.failure-continues: what counts as a failed compaction, and what follows it', () => {
  const verdict = (run: AgentRunHistory) => resultOf(run, 'compaction.failure-continues');

  it('takes a failed tool or model call for no compaction failure, and a run failed for the compaction without one for none', () => {
    const run = new AgentRunHistory().turn();
    run.history.workflowTask();
    run.history.activityFailed(run.history.activityScheduled(ACTIVITY.runTool, { turn: 2 }), 'tool down', 'HttpUnavailable');
    run.turn().complete();
    expect(verdict(run).status).toBe('not-applicable');
    const named = new AgentRunHistory().turn();
    named.history.workflowTask();
    named.history.failed('CompactionFailed: compaction model unavailable');
    expect(verdict(named).status).toBe('not-applicable');
  });

  it('passes a run that fails later for another reason, after a compaction that failed and a turn', () => {
    const run = overTrigger().compact({ outcome: 'failed' }).turn();
    run.history.workflowTask();
    run.history.failed('model unavailable', 'HttpUnavailable');
    expect(verdict(run).status).toBe('pass');
  });

  it('finds the next call in the execution after the failure, never in an earlier one', () => {
    const carried = overTrigger().compact({ outcome: 'failed' }).continueAsNew().turn().complete();
    expect(verdict(carried).status).toBe('pass');
    const later = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(2).continueAsNew();
    while (Buffer.byteLength(JSON.stringify(later.request())) <= later.limits.compactionTriggerBytes) later.turn();
    later.compact({ outcome: 'failed' });
    later.history.workflowTask();
    later.history.failed('model unavailable', 'HttpUnavailable');
    expect(verdict(later).evidence[0]).toMatch(/^execution 2 event \d+: compact_context failed, then no call_model/);
  });

  it('fails a journaled failure (the kernel rejected the card) with no call of its turn or a later one after it', () => {
    const run = overTrigger().compact({ outcome: 'rejected' });
    run.history.workflowTask();
    run.history.failed('model unavailable', 'HttpUnavailable');
    expect(verdict(run).evidence[0]).toMatch(/context\.compaction_failed \(turn \d+\), then no call_model: the run ended failed/);
  });

  it("fails a failed compaction left unjournaled even where another turn's failure was journaled", () => {
    const run = overTrigger().compact({ outcome: 'failed' }).turn();
    run.compact({ outcome: 'failed', journal: false }).turn().complete();
    expect(verdict(run).evidence).toContainEqual(
      expect.stringMatching(/^event \d+: compact_context failed but the journal has no context\.compaction_failed for turn \d+$/),
    );
  });

  describe('a compaction failure whose chain holds two failure types', () => {
    /**
     * A failed compaction journaled with `reason`, its failure `type` caused by another failure
     * `causeType` (the kernel's HttpUnavailable caused by Node's `TypeError: fetch failed`, say).
     */
    const chained = (type: string, causeType: string, reason: string) => {
      const run = overTrigger().compact({ outcome: 'failed', reason }).turn().complete();
      const histories = structuredClone(run.histories());
      const failed = histories[0]?.events.find((event) => event.activityTaskFailedEventAttributes)?.activityTaskFailedEventAttributes as {
        failure: Record<string, unknown>;
      };
      failed.failure = {
        message: 'compaction model unavailable',
        applicationFailureInfo: { type },
        cause: { message: 'fetch failed', applicationFailureInfo: { type: causeType } },
      };
      return checkRun(histories).results.find((r) => r.id === 'compaction.failure-continues');
    };

    it("passes a contract type beside another, the record naming the contract's", () => {
      expect(chained('HttpUnavailable', 'TypeError', 'HttpUnavailable: compaction model unavailable')?.status).toBe('pass');
    });

    it('passes two of the contract types, the record naming either', () => {
      for (const reason of ['MalformedResponse: compaction model unavailable', 'HttpUnavailable: fetch failed']) {
        expect(chained('MalformedResponse', 'HttpUnavailable', reason)?.status, reason).toBe('pass');
      }
    });

    it('fails a record that names only the type the contract does not', () => {
      const result = chained('HttpUnavailable', 'TypeError', 'TypeError: fetch failed');
      expect(result?.status).toBe('fail');
      expect(result?.evidence[0]).toMatch(
        /^event \d+: compact_context failed with HttpUnavailable; the journal's context\.compaction_failed of turn \d+ gives the reason "TypeError: fetch failed"$/,
      );
    });
  });
});
