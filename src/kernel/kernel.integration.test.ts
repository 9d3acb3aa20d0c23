/**
 * The kernel on the real embedded Temporal server, with limits scaled down tenfold (trigger
 * 120 KB, blob 256 KiB in both the server's dynamic config and the runs' limits) so that runs
 * that cross them take seconds. The model and the sandbox are the scripted MSW world.
 */
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallModelInput, CallModelResult, CompactedData, RunResult } from '../contract/kernel-api.ts';
import type { Message } from '../contract/messages.ts';
import { cardProblem, FAILURE_TYPE, guardTargetBytes, resolveLimits } from './index.ts';
import {
  activities,
  continueAsNewInput,
  fetchHistory,
  type History,
  journalChainProblem,
  journalOf,
  pendingActivities,
} from './testing/histories.ts';
import type { Script } from './testing/scripted-world.ts';
import { dataOf, largestRequest, SCALED_BLOB, SCALED_LIMITS, startTestBed, type TestBed, waitFor } from './testing/test-bed.ts';

/** Crosses the trigger around turn 8 and stays under v0's guard target: v0 finishes it without compaction. */
const GROWING: Script = {
  turns: 14,
  toolBytes: 12_000,
  screenshotEvery: 4,
  screenshotBytes: 20_000,
  compaction: 'card',
};
/** Text only, past the blob limit by turn 21: v0 cannot elide any of it. */
const TEXT_HEAVY: Script = { turns: 26, toolBytes: 12_000, compaction: 'card' };
const GUARD_TARGET = guardTargetBytes(resolveLimits(SCALED_LIMITS));
const EventType = temporal.api.enums.v1.EventType;

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed(['v0', 'v1', 'ungated']);
});
afterAll(async () => {
  await bed?.teardown();
});

describe('compaction on the current binary', () => {
  it('compacts when a request passes the trigger, and no request it sends is over the trigger', async () => {
    const run = await bed.runToEnd('v1', GROWING);
    expect(run.result).toMatchObject({ ended: 'done', finalAnswer: 'done' });
    expect(run.result.counters).toMatchObject({ turns: GROWING.turns, compactionFailures: 0, executions: 1 });
    expect(run.result.counters.compactions).toBeGreaterThanOrEqual(1);
    expect(largestRequest(run.world)).toBeLessThanOrEqual(120_000);
    expect(run.result.counters.totalRequestBytes).toBe(run.world.agentRequests.reduce((sum, request) => sum + request.bytes, 0));
    expect(journalChainProblem(run.journal)).toBeNull();

    const compacted = dataOf<CompactedData>(run.journal, 'context.compacted');
    expect(compacted).toHaveLength(run.result.counters.compactions);
    for (const event of compacted) {
      expect(event.bytes_before).toBeGreaterThan(120_000);
      expect(event.bytes_after).toBeLessThan(120_000);
      expect(cardProblem(event.card, 8 * 1024)).toBeNull();
      expect(event.kept).toBeGreaterThanOrEqual(2);
      expect(event.kept).toBeLessThanOrEqual(8);
      // The request of the compaction turn: the rebuild, card third, verbatim head before it.
      const sent = run.world.agentRequests.find((request) => request.turn === event.turn)?.request;
      expect(sent?.messages.slice(0, 3)).toEqual([
        { role: 'system', content: 'You are a careful coding agent.' },
        { role: 'user', content: 'Make the test suite pass and tell me what you changed.' },
        { role: 'system', content: expect.stringContaining(event.card) },
      ]);
      expect(sent?.messages[3]?.role).toBe('assistant');
    }
    // Compaction starts at the first boundary over the trigger: every earlier request was under it.
    const first = compacted[0] as CompactedData;
    const before = run.world.agentRequests.filter((request) => request.turn < first.turn);
    expect(Math.max(...before.map((request) => request.bytes))).toBeLessThanOrEqual(120_000);
  });

  it('where v0 sends ever bigger requests for the same run', async () => {
    const run = await bed.runToEnd('v0', GROWING);
    expect(run.result).toMatchObject({ ended: 'done', counters: { compactions: 0 } });
    expect(largestRequest(run.world)).toBeGreaterThan(200_000);
    expect(largestRequest(run.world)).toBeLessThanOrEqual(GUARD_TARGET);
    expect(run.world.compactionRequests).toHaveLength(0);
  });

  it('completes a run whose compaction model always fails, the guard keeping every request under the blob limit', async () => {
    const script: Script = { turns: 16, toolBytes: 20_000, compaction: 'http-500' };
    const run = await bed.runToEnd('v1', script);
    expect(run.result).toMatchObject({ ended: 'done', counters: { turns: script.turns, compactions: 0 } });
    const overTrigger = run.world.agentRequests.filter((request) => request.bytes > 120_000);
    expect(overTrigger.length).toBeGreaterThan(5);
    expect(run.result.counters.compactionFailures).toBe(overTrigger.length);
    expect(run.world.compactionRequests).toHaveLength(3 * overTrigger.length);
    const failed = run.journal.filter((event) => event.type === 'context.compaction_failed');
    for (const event of failed) {
      expect(event.data.reason).toMatch(/^HttpUnavailable: compaction model answered HTTP 500/);
      const next = run.journal[run.journal.indexOf(event) + 1];
      expect(next).toMatchObject({ type: 'turn.completed', turn: event.turn });
    }
    expect(dataOf(run.journal, 'payload.elided').length).toBeGreaterThan(0);
    expect(largestRequest(run.world)).toBeLessThanOrEqual(GUARD_TARGET);
    expect(journalChainProblem(run.journal)).toBeNull();
  });
});

describe('ContinueAsNew', () => {
  it('continues as new at least twice, carrying the dialog, the counters and the journal chain', async () => {
    const script: Script = { ...GROWING, turns: 20 };
    const run = await bed.runToEnd('v1', script, { ...SCALED_LIMITS, continueAsNewBytes: 300_000 });
    const { result, histories, journal } = run;
    expect(result).toMatchObject({ ended: 'done', counters: { turns: 20, executions: histories.length } });
    expect(histories.length).toBeGreaterThanOrEqual(3);
    expect(run.world.agentRequests.map((request) => request.turn)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(result.counters.totalRequestBytes).toBe(run.world.agentRequests.reduce((sum, request) => sum + request.bytes, 0));
    expect(journalChainProblem(journal)).toBeNull();
    expect(journal.filter((event) => event.type === 'run.started')).toHaveLength(1);
    expect(journal.filter((event) => event.type === 'run.continued_as_new')).toHaveLength(histories.length - 1);

    histories.slice(0, -1).forEach((history, index) => {
      const carried = continueAsNewInput(history);
      const calls = activities<CallModelInput, CallModelResult>(history, 'call_model');
      const last = calls.at(-1);
      if (!carried?.resume || !last?.result) throw new Error(`execution ${index + 1} did not carry a resume`);
      expect(pendingActivities(history, 'journal.append')).toBe(0);
      // The dialog: the last request, its answer, then one result per tool call.
      const { messages } = carried.resume;
      const answered: Message[] = [...last.input.request.messages, last.result.message];
      expect(messages.slice(0, answered.length)).toEqual(answered);
      expect(messages.slice(answered.length).map((message) => message.role)).toEqual(
        (last.result.message.tool_calls ?? []).map(() => 'tool'),
      );
      const turnsSoFar = histories.slice(0, index + 1).flatMap((h) => activities(h, 'call_model')).length;
      expect(carried.resume.counters).toMatchObject({ turns: turnsSoFar, executions: index + 1 });
      // The next execution starts from exactly those messages unless it compacts at once.
      const nextFirst = activities<CallModelInput, CallModelResult>(histories[index + 1] as History, 'call_model')[0];
      const compactedThere = journal.some((event) => event.type === 'context.compacted' && event.turn === turnsSoFar + 1);
      if (!compactedThere) expect(nextFirst?.input.request.messages).toEqual(messages);
      expect(nextFirst?.input.turn).toBe(turnsSoFar + 1);
    });
  });
});

describe('the payload limit', () => {
  it('reproduces TMPRL1103 on v0 for a text-heavy run: a PAYLOADS_TOO_LARGE workflow task failure', async () => {
    const { world, taskQueue, workflowId } = bed.freshRun(TEXT_HEAVY);
    const worker = await bed.workerFor('v0', taskQueue);
    const handle = await bed.client.workflow.start('agentRun', {
      taskQueue,
      workflowId,
      args: [bed.runInput(workflowId, TEXT_HEAVY)],
    });
    const failedTask = async () =>
      (await fetchHistory(bed.client, workflowId, handle.firstExecutionRunId)).events?.find(
        (event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
      );
    const failure = await worker.runUntil(waitFor(failedTask, 'a failed workflow task'));
    await handle.terminate('reproduced');
    expect(failure?.workflowTaskFailedEventAttributes?.cause).toBe(
      temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE,
    );
    expect(largestRequest(world)).toBeLessThan(SCALED_BLOB);
    expect(world.agentRequests.at(-1)?.turn).toBeLessThan(TEXT_HEAVY.turns);
  });

  it('does not on v1, which compacts the same run', async () => {
    const run = await bed.runToEnd('v1', TEXT_HEAVY);
    expect(run.result).toMatchObject({ ended: 'done', counters: { turns: TEXT_HEAVY.turns, compactionFailures: 0 } });
    expect(largestRequest(run.world)).toBeLessThanOrEqual(120_000);
  });
  it('ends the run with a PayloadGuard failure when not even compaction can bring the request under the limit', async () => {
    const script: Script = { turns: 3, toolBytes: 100, compaction: 'card' };
    const { world, taskQueue, workflowId } = bed.freshRun(script);
    const worker = await bed.workerFor('v1', taskQueue);
    const oversized = {
      ...bed.runInput(workflowId, script),
      systemPrompt: 's'.repeat(126_800),
      userRequest: 'u'.repeat(126_800),
    };
    const handle = await bed.client.workflow.start('agentRun', { taskQueue, workflowId, args: [oversized] });
    const failure = await worker.runUntil(
      handle.result().then(
        () => null,
        (error: unknown) => error,
      ),
    );
    expect(failure).toMatchObject({ cause: { type: FAILURE_TYPE.payloadGuard } });
    expect(String((failure as Error & { cause: Error }).cause.message)).toMatch(
      /^the request of turn 1 is \d+ bytes after eliding 0 items and cannot be brought under 253952 bytes/,
    );
    expect(world.agentRequests).toHaveLength(0);
    const journal = journalOf([await fetchHistory(bed.client, workflowId, handle.firstExecutionRunId)]);
    expect(['context.compacted', 'context.compaction_failed']).toContain(journal.at(-1)?.type);
  });
});

describe('replay across binaries', () => {
  let v0History: History;

  beforeAll(async () => {
    const run = await bed.runToEnd('v0', GROWING);
    expect(largestRequest(run.world)).toBeGreaterThan(120_000);
    v0History = run.histories[0] as History;
  });

  it('replays a v0 history that crossed the trigger on v1 unchanged', async () => {
    await expect(Worker.runReplayHistory({ workflowBundle: bed.bundle('v1') }, v0History)).resolves.toBeUndefined();
  });

  it('fails to replay it on the ungated control, with a DeterminismViolationError', async () => {
    await expect(Worker.runReplayHistory({ workflowBundle: bed.bundle('ungated') }, v0History)).rejects.toThrow(DeterminismViolationError);
  });

  it('replays a run started on v0 and finished on v1, which compacted once v1 took over', async () => {
    const { world, taskQueue, workflowId } = bed.freshRun(GROWING);
    const handle = await bed.client.workflow.start('agentRun', {
      taskQueue,
      workflowId,
      args: [bed.runInput(workflowId, GROWING)],
    });
    const v0 = await bed.workerFor('v0', taskQueue);
    await v0.runUntil(waitFor(() => world.agentRequests.find((request) => request.bytes > 120_000), 'a request over the trigger'));
    const handedOver = world.agentRequests.length;
    const v1 = await bed.workerFor('v1', taskQueue);
    const result = (await v1.runUntil(handle.result())) as RunResult;
    expect(result).toMatchObject({ ended: 'done', counters: { turns: GROWING.turns } });
    expect(result.counters.compactions).toBeGreaterThanOrEqual(1);
    const history = await fetchHistory(bed.client, workflowId, handle.firstExecutionRunId);
    const compacted = dataOf<CompactedData>(journalOf([history]), 'context.compacted');
    expect(compacted[0]?.turn).toBeGreaterThan(handedOver);
    await expect(Worker.runReplayHistory({ workflowBundle: bed.bundle('v1') }, history)).resolves.toBeUndefined();
    await expect(Worker.runReplayHistory({ workflowBundle: bed.bundle('v0') }, history)).rejects.toThrow(DeterminismViolationError);
  });
});
