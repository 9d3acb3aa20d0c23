/**
 * Each broken control on the real embedded server, doing the one wrong thing it exists for,
 * where the current binary does not (the ungated control is shown in kernel.integration.test.ts,
 * by replay).
 */
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompactedData, CompactionFailedData } from '../contract/kernel-api.ts';
import { FAILURE_TYPE, guardTargetBytes, resolveLimits } from './index.ts';
import { fetchHistory, type History, journalChainProblem, journalOf, pendingActivities } from './testing/histories.ts';
import type { Script } from './testing/scripted-world.ts';
import { dataOf, largestRequest, SCALED_BLOB, SCALED_LIMITS, startTestBed, type TestBed, waitFor } from './testing/test-bed.ts';

const GROWING: Script = {
  turns: 14,
  toolBytes: 12_000,
  screenshotEvery: 4,
  screenshotBytes: 20_000,
  compaction: 'card',
};
/** 40 KB screenshots every turn and a compaction model that is down: only the guard stands between it and the blob limit. */
const SCREENSHOTS_NO_COMPACTION: Script = {
  turns: 9,
  toolBytes: 500,
  screenshotEvery: 1,
  screenshotBytes: 40_000,
  compaction: 'http-500',
};
const TRIGGER = 120_000;

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed(['v1', 'can-while-pending', 'split-group', 'trigger-late', 'compaction-fatal', 'guard-ignores-screenshots']);
});
afterAll(async () => {
  await bed?.teardown();
});

describe('can-while-pending', () => {
  it('continues as new with a journal append still pending, so the carried head is stale and the chain breaks', async () => {
    const run = await bed.runToEnd('can-while-pending', { ...GROWING, turns: 12 }, { ...SCALED_LIMITS, continueAsNewBytes: 300_000 });
    expect(run.histories.length).toBeGreaterThanOrEqual(2);
    expect(pendingActivities(run.histories[0] as History, 'journal.append')).toBeGreaterThan(0);
    expect(journalChainProblem(run.journal)).toMatch(/has seq|does not name the hash/);
  });
});

describe('split-group', () => {
  it('sends a rebuilt request whose tail starts with tool results that lost their assistant message', async () => {
    const run = await bed.runToEnd('split-group', GROWING);
    const compacted = dataOf<CompactedData>(run.journal, 'context.compacted');
    expect(compacted.length).toBeGreaterThan(0);
    for (const event of compacted) {
      const sent = run.world.agentRequests.find((request) => request.turn === event.turn)?.request;
      expect(sent?.messages[3]?.role).toBe('tool');
    }
  });

  it('where the current binary keeps every group whole', async () => {
    const run = await bed.runToEnd('v1', GROWING);
    const compacted = dataOf<CompactedData>(run.journal, 'context.compacted');
    expect(compacted.length).toBeGreaterThan(0);
    for (const event of compacted) {
      const sent = run.world.agentRequests.find((request) => request.turn === event.turn)?.request;
      expect(sent?.messages[3]?.role).toBe('assistant');
    }
  });
});

describe('trigger-late', () => {
  it('sends one request over the trigger before it compacts', async () => {
    const run = await bed.runToEnd('trigger-late', GROWING);
    const compacted = dataOf<CompactedData>(run.journal, 'context.compacted');
    expect(compacted.length).toBeGreaterThan(0);
    const over = run.world.agentRequests.filter((request) => request.bytes > TRIGGER);
    expect(over[0]?.turn).toBe((compacted[0]?.turn ?? 0) - 1);
    for (const event of compacted) expect(over.map((request) => request.turn)).toContain(event.turn - 1);
  });
});

describe('compaction-fatal', () => {
  it('ends the run when compaction fails, right after journaling the failure', async () => {
    const script: Script = { ...GROWING, compaction: 'http-500' };
    const { taskQueue, workflowId } = bed.freshRun(script);
    const worker = await bed.workerFor('compaction-fatal', taskQueue);
    const handle = await bed.client.workflow.start('agentRun', {
      taskQueue,
      workflowId,
      args: [bed.runInput(workflowId, script)],
    });
    const failure = await worker.runUntil(
      handle.result().then(
        () => null,
        (error: unknown) => error,
      ),
    );
    expect(failure).toMatchObject({ cause: { type: FAILURE_TYPE.compactionFailed } });
    const journal = journalOf([await fetchHistory(bed.client, workflowId, handle.firstExecutionRunId)]);
    expect(journal.at(-1)?.type).toBe('context.compaction_failed');
    expect(dataOf<CompactionFailedData>(journal, 'context.compaction_failed')).toHaveLength(1);
  });
});

describe('guard-ignores-screenshots', () => {
  it('schedules a request over the blob limit, failing the workflow task with PAYLOADS_TOO_LARGE', async () => {
    const { world, taskQueue, workflowId } = bed.freshRun(SCREENSHOTS_NO_COMPACTION);
    const worker = await bed.workerFor('guard-ignores-screenshots', taskQueue);
    const handle = await bed.client.workflow.start('agentRun', {
      taskQueue,
      workflowId,
      args: [bed.runInput(workflowId, SCREENSHOTS_NO_COMPACTION)],
    });
    const failedTask = async () =>
      (await fetchHistory(bed.client, workflowId, handle.firstExecutionRunId)).events?.find(
        (event) => event.workflowTaskFailedEventAttributes,
      );
    const failure = await worker.runUntil(waitFor(failedTask, 'a failed workflow task'));
    await handle.terminate('reproduced');
    expect(failure.workflowTaskFailedEventAttributes?.cause).toBe(
      temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE,
    );
    expect(world.agentRequests.at(-1)?.turn).toBeLessThan(SCREENSHOTS_NO_COMPACTION.turns);
  });

  it('where the current binary elides screenshots and finishes under the limit', async () => {
    const run = await bed.runToEnd('v1', SCREENSHOTS_NO_COMPACTION);
    expect(run.result).toMatchObject({ ended: 'done', counters: { turns: SCREENSHOTS_NO_COMPACTION.turns } });
    expect(dataOf<{ screenshots: number }>(run.journal, 'payload.elided').some((data) => data.screenshots > 0)).toBe(true);
    expect(largestRequest(run.world)).toBeLessThanOrEqual(guardTargetBytes(resolveLimits(SCALED_LIMITS)));
    expect(largestRequest(run.world)).toBeLessThan(SCALED_BLOB);
  });
});
