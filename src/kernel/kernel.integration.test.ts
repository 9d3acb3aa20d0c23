/**
 * The kernel on the real embedded Temporal server, with limits scaled down tenfold (trigger
 * 120 KB, blob 256 KiB in both the server's dynamic config and the runs' limits) so that runs
 * that cross them take seconds. The model and the sandbox are the scripted MSW world.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CallModelInput,
  CallModelResult,
  CompactedData,
  JournalEvent,
  KernelLimits,
  RunInput,
  RunResult,
} from '../contract/kernel-api.ts';
import type { Message } from '../contract/messages.ts';
import { type Environment, installRuntime, startEnvironment } from '../environment/index.ts';
import { BINARIES, type BinaryId, cardProblem, createActivities, guardTargetBytes, resolveLimits } from './index.ts';
import {
  activities,
  continueAsNewInput,
  executionChain,
  fetchHistory,
  type History,
  journalChainProblem,
  journalOf,
  pendingActivities,
} from './test-support/histories.ts';
import {
  MODEL_BASE_URL,
  SANDBOX_BASE_URL,
  type Script,
  type ScriptedWorld,
  scriptedWorld,
} from './test-support/scripted-world.ts';

const BLOB = 256 * 1024;
const LIMITS: Partial<KernelLimits> = { blobLimitBytes: BLOB, compactionTriggerBytes: 120_000, tailMaxBytes: 40_000 };
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
const EventType = temporal.api.enums.v1.EventType;

const server = setupServer();
let env: Environment;
let client: Client;
const bundles = new Map<BinaryId, WorkflowBundleWithSourceMap>();
let runCount = 0;

beforeAll(async () => {
  installRuntime();
  server.listen({ onUnhandledRequest: 'error' });
  env = await startEnvironment({ dynamicConfig: { 'limit.blobSize.error': BLOB, 'limit.blobSize.warn': BLOB / 2 } });
  client = env.testEnv.client;
  for (const id of ['v0', 'v1', 'ungated', 'can-while-pending'] as const) {
    bundles.set(id, await bundleWorkflowCode({ workflowsPath: BINARIES[id].workflowsPath, logger: silentLogger }));
  }
});

afterAll(async () => {
  server.close();
  await env?.teardown();
});

const noop = () => {};
const silentLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };

function bundle(id: BinaryId): WorkflowBundleWithSourceMap {
  const found = bundles.get(id);
  if (!found) throw new Error(`binary ${id} was not bundled`);
  return found;
}

function runInput(runId: string, script: Script, limits: Partial<KernelLimits> = LIMITS): RunInput {
  return {
    runId,
    systemPrompt: 'You are a careful coding agent.',
    userRequest: 'Make the test suite pass and tell me what you changed.',
    settings: { agent: { model: 'agent-model' }, compaction: { model: 'compaction-model' } },
    maxTurns: script.turns + 5,
    limits,
  };
}

/** A fresh world for one run, and a task queue of its own. */
function freshRun(script: Script): { world: ScriptedWorld; taskQueue: string; workflowId: string } {
  const world = scriptedWorld(script);
  server.resetHandlers(...world.handlers);
  runCount++;
  return { world, taskQueue: `kernel-${runCount}`, workflowId: `kernel-run-${runCount}` };
}

async function workerFor(id: BinaryId, taskQueue: string): Promise<Worker> {
  return Worker.create({
    connection: env.testEnv.nativeConnection,
    namespace: env.namespace,
    taskQueue,
    workflowBundle: bundle(id),
    activities: createActivities({ modelBaseUrl: MODEL_BASE_URL, sandboxBaseUrl: SANDBOX_BASE_URL }),
  });
}

interface FinishedRun {
  result: RunResult;
  histories: History[];
  journal: JournalEvent[];
}

async function runToEnd(id: BinaryId, script: Script, limits?: Partial<KernelLimits>) {
  const { world, taskQueue, workflowId } = freshRun(script);
  const worker = await workerFor(id, taskQueue);
  const handle = await client.workflow.start('agentRun', {
    taskQueue,
    workflowId,
    args: [runInput(workflowId, script, limits)],
  });
  const result = (await worker.runUntil(handle.result())) as RunResult;
  const histories = await executionChain(client, workflowId, handle.firstExecutionRunId);
  return { world, run: { result, histories, journal: journalOf(histories) } satisfies FinishedRun };
}

function eventsOfType<T>(journal: readonly JournalEvent[], type: JournalEvent['type']): T[] {
  return journal.filter((event) => event.type === type).map((event) => event.data as T);
}

async function waitFor(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const maxBytes = (world: ScriptedWorld) => Math.max(...world.agentRequests.map((request) => request.bytes));

describe('compaction on the current binary', () => {
  it('compacts when a request passes the trigger, and no request it sends is over the trigger', async () => {
    const { world, run } = await runToEnd('v1', GROWING);
    expect(run.result).toMatchObject({ ended: 'done', finalAnswer: 'done' });
    expect(run.result.counters).toMatchObject({ turns: GROWING.turns, compactionFailures: 0, executions: 1 });
    expect(run.result.counters.compactions).toBeGreaterThanOrEqual(1);
    expect(maxBytes(world)).toBeLessThanOrEqual(120_000);
    expect(run.result.counters.totalRequestBytes).toBe(
      world.agentRequests.reduce((sum, request) => sum + request.bytes, 0),
    );
    expect(journalChainProblem(run.journal)).toBeNull();

    const compacted = eventsOfType<CompactedData>(run.journal, 'context.compacted');
    expect(compacted).toHaveLength(run.result.counters.compactions);
    for (const event of compacted) {
      expect(event.bytes_before).toBeGreaterThan(120_000);
      expect(event.bytes_after).toBeLessThan(120_000);
      expect(cardProblem(event.card, 8 * 1024)).toBeNull();
      expect(event.kept).toBeGreaterThanOrEqual(2);
      expect(event.kept).toBeLessThanOrEqual(8);
      // The request of the compaction turn: the rebuild, card third, verbatim head before it.
      const sent = world.agentRequests.find((request) => request.turn === event.turn)?.request;
      expect(sent?.messages.slice(0, 3)).toEqual([
        { role: 'system', content: 'You are a careful coding agent.' },
        { role: 'user', content: 'Make the test suite pass and tell me what you changed.' },
        { role: 'system', content: expect.stringContaining(event.card) },
      ]);
      expect(sent?.messages[3]?.role).toBe('assistant');
    }
    // Compaction starts at the first boundary over the trigger: every earlier request was under it.
    const first = compacted[0] as CompactedData;
    const before = world.agentRequests.filter((request) => request.turn < first.turn);
    expect(Math.max(...before.map((request) => request.bytes))).toBeLessThanOrEqual(120_000);
  });

  it('where v0 sends ever bigger requests for the same run', async () => {
    const { world, run } = await runToEnd('v0', GROWING);
    expect(run.result).toMatchObject({ ended: 'done', counters: { compactions: 0 } });
    expect(maxBytes(world)).toBeGreaterThan(200_000);
    expect(maxBytes(world)).toBeLessThanOrEqual(guardTargetBytes(resolveLimits(LIMITS)));
    expect(world.compactionRequests).toHaveLength(0);
  });

  it('completes a run whose compaction model always fails, the guard keeping every request under the blob limit', async () => {
    const script: Script = { turns: 16, toolBytes: 20_000, compaction: 'http-500' };
    const { world, run } = await runToEnd('v1', script);
    expect(run.result).toMatchObject({ ended: 'done', counters: { turns: script.turns, compactions: 0 } });
    const overTrigger = world.agentRequests.filter((request) => request.bytes > 120_000);
    expect(overTrigger.length).toBeGreaterThan(5);
    expect(run.result.counters.compactionFailures).toBe(overTrigger.length);
    expect(world.compactionRequests).toHaveLength(3 * overTrigger.length);
    const failed = run.journal.filter((event) => event.type === 'context.compaction_failed');
    for (const event of failed) {
      expect(event.data.reason).toMatch(/^HttpUnavailable: compaction model answered HTTP 500/);
      const next = run.journal[run.journal.indexOf(event) + 1];
      expect(next).toMatchObject({ type: 'turn.completed', turn: event.turn });
    }
    expect(eventsOfType(run.journal, 'payload.elided').length).toBeGreaterThan(0);
    expect(maxBytes(world)).toBeLessThanOrEqual(guardTargetBytes(resolveLimits(LIMITS)));
    expect(journalChainProblem(run.journal)).toBeNull();
  });
});

describe('ContinueAsNew', () => {
  it('continues as new at least twice, carrying the dialog, the counters and the journal chain', async () => {
    const script: Script = { ...GROWING, turns: 20 };
    const { world, run } = await runToEnd('v1', script, { ...LIMITS, continueAsNewBytes: 300_000 });
    const { result, histories, journal } = run;
    expect(result).toMatchObject({ ended: 'done', counters: { turns: 20, executions: histories.length } });
    expect(histories.length).toBeGreaterThanOrEqual(3);
    expect(world.agentRequests.map((request) => request.turn)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(result.counters.totalRequestBytes).toBe(
      world.agentRequests.reduce((sum, request) => sum + request.bytes, 0),
    );
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
      const compactedThere = journal.some(
        (event) => event.type === 'context.compacted' && event.turn === turnsSoFar + 1,
      );
      if (!compactedThere) expect(nextFirst?.input.request.messages).toEqual(messages);
      expect(nextFirst?.input.turn).toBe(turnsSoFar + 1);
    });
  });

  it('in the can-while-pending control, leaves a journal append pending and breaks the chain', async () => {
    const script: Script = { ...GROWING, turns: 12 };
    const { run } = await runToEnd('can-while-pending', script, { ...LIMITS, continueAsNewBytes: 300_000 });
    expect(run.histories.length).toBeGreaterThanOrEqual(2);
    expect(pendingActivities(run.histories[0] as History, 'journal.append')).toBeGreaterThan(0);
    expect(journalChainProblem(run.journal)).not.toBeNull();
  });
});

describe('the payload limit', () => {
  it('reproduces TMPRL1103 on v0 for a text-heavy run: a PAYLOADS_TOO_LARGE workflow task failure', async () => {
    const { world, taskQueue, workflowId } = freshRun(TEXT_HEAVY);
    const worker = await workerFor('v0', taskQueue);
    const handle = await client.workflow.start('agentRun', {
      taskQueue,
      workflowId,
      args: [runInput(workflowId, TEXT_HEAVY)],
    });
    const failedTask = async () =>
      (await fetchHistory(client, workflowId, handle.firstExecutionRunId)).events?.find(
        (event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
      );
    let failure: Awaited<ReturnType<typeof failedTask>>;
    await worker.runUntil(async () => {
      const deadline = Date.now() + 60_000;
      while (!(failure = await failedTask()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    });
    await handle.terminate('reproduced');
    expect(failure?.workflowTaskFailedEventAttributes?.cause).toBe(
      temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE,
    );
    expect(maxBytes(world)).toBeLessThan(BLOB);
    expect(world.agentRequests.at(-1)?.turn).toBeLessThan(TEXT_HEAVY.turns);
  });

  it('does not on v1, which compacts the same run', async () => {
    const { world, run } = await runToEnd('v1', TEXT_HEAVY);
    expect(run.result).toMatchObject({ ended: 'done', counters: { turns: TEXT_HEAVY.turns, compactionFailures: 0 } });
    expect(maxBytes(world)).toBeLessThanOrEqual(120_000);
  });
});

describe('replay across binaries', () => {
  let v0History: History;

  beforeAll(async () => {
    const { world, run } = await runToEnd('v0', GROWING);
    expect(maxBytes(world)).toBeGreaterThan(120_000);
    v0History = run.histories[0] as History;
  });

  it('replays a v0 history that crossed the trigger on v1 unchanged', async () => {
    await expect(Worker.runReplayHistory({ workflowBundle: bundle('v1') }, v0History)).resolves.toBeUndefined();
  });

  it('fails to replay it on the ungated control, with a DeterminismViolationError', async () => {
    await expect(Worker.runReplayHistory({ workflowBundle: bundle('ungated') }, v0History)).rejects.toThrow(
      DeterminismViolationError,
    );
  });

  it('replays a run started on v0 and finished on v1, which compacted once v1 took over', async () => {
    const { world, taskQueue, workflowId } = freshRun(GROWING);
    const handle = await client.workflow.start('agentRun', {
      taskQueue,
      workflowId,
      args: [runInput(workflowId, GROWING)],
    });
    const v0 = await workerFor('v0', taskQueue);
    await v0.runUntil(
      waitFor(() => world.agentRequests.some((request) => request.bytes > 120_000), 'a request over the trigger'),
    );
    const handedOver = world.agentRequests.length;
    const v1 = await workerFor('v1', taskQueue);
    const result = (await v1.runUntil(handle.result())) as RunResult;
    expect(result).toMatchObject({ ended: 'done', counters: { turns: GROWING.turns } });
    expect(result.counters.compactions).toBeGreaterThanOrEqual(1);
    const history = await fetchHistory(client, workflowId, handle.firstExecutionRunId);
    const compacted = eventsOfType<CompactedData>(journalOf([history]), 'context.compacted');
    expect(compacted[0]?.turn).toBeGreaterThan(handedOver);
    await expect(Worker.runReplayHistory({ workflowBundle: bundle('v1') }, history)).resolves.toBeUndefined();
    await expect(Worker.runReplayHistory({ workflowBundle: bundle('v0') }, history)).rejects.toThrow(
      DeterminismViolationError,
    );
  });
});
