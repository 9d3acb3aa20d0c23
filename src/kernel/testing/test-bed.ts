/**
 * The kernel's integration test bed: the embedded Temporal server with the blob limit scaled
 * down, the binaries bundled once, the scripted MSW world, and helpers to run a script on a
 * binary and read back its executions and journal.
 */
import type { Client } from '@temporalio/client';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { setupServer } from 'msw/node';
import type { JournalEvent, KernelLimits, RunInput, RunResult } from '../../contract/kernel-api.ts';
import { type Environment, installRuntime, startEnvironment } from '../../environment/index.ts';
import { createActivities } from '../activities/index.ts';
import type { BinaryId } from '../binaries/index.ts';
import { workflowBundle } from '../workers/workflow-bundles.ts';
import { executionChain, type History, journalOf } from './histories.ts';
import { MODEL_BASE_URL, SANDBOX_BASE_URL, type Script, type ScriptedWorld, scriptedWorld } from './scripted-world.ts';

/** Tenfold down: blob 256 KiB (server and runs), trigger 120 KB, tail 40 KB. */
export const SCALED_BLOB = 256 * 1024;
export const SCALED_LIMITS: Partial<KernelLimits> = {
  blobLimitBytes: SCALED_BLOB,
  compactionTriggerBytes: 120_000,
  tailMaxBytes: 40_000,
};

export interface FreshRun {
  world: ScriptedWorld;
  taskQueue: string;
  workflowId: string;
}

export interface FinishedRun {
  world: ScriptedWorld;
  result: RunResult;
  histories: History[];
  journal: JournalEvent[];
}

export interface TestBed {
  client: Client;
  bundle(id: BinaryId): WorkflowBundle;
  /** A fresh scripted world for one run (replacing the handlers of the last), with its own task queue. */
  freshRun(script: Script): FreshRun;
  workerFor(id: BinaryId, taskQueue: string): Promise<Worker>;
  runInput(runId: string, script: Script, limits?: Partial<KernelLimits>): RunInput;
  /** Runs the script on the binary until the workflow returns, then reads its executions. */
  runToEnd(id: BinaryId, script: Script, limits?: Partial<KernelLimits>): Promise<FinishedRun>;
  teardown(): Promise<void>;
}

export async function startTestBed(binaries: readonly BinaryId[]): Promise<TestBed> {
  installRuntime();
  const server = setupServer();
  server.listen({ onUnhandledRequest: 'error' });
  const env: Environment = await startEnvironment({
    dynamicConfig: { 'limit.blobSize.error': SCALED_BLOB, 'limit.blobSize.warn': SCALED_BLOB / 2 },
  });
  const client = env.testEnv.client;
  const bundles = new Map<BinaryId, WorkflowBundle>();
  for (const id of binaries) {
    bundles.set(id, await workflowBundle(id));
  }
  let runs = 0;

  const bed: TestBed = {
    client,
    bundle(id) {
      const found = bundles.get(id);
      if (!found) throw new Error(`binary ${id} was not bundled`);
      return found;
    },
    freshRun(script) {
      const world = scriptedWorld(script);
      server.resetHandlers(...world.handlers);
      runs++;
      return { world, taskQueue: `kernel-${runs}`, workflowId: `kernel-run-${runs}` };
    },
    workerFor(id, taskQueue) {
      return Worker.create({
        connection: env.workerConnection,
        namespace: env.namespace,
        taskQueue,
        workflowBundle: bed.bundle(id),
        activities: createActivities({ modelBaseUrl: MODEL_BASE_URL, sandboxBaseUrl: SANDBOX_BASE_URL }),
      });
    },
    runInput(runId, script, limits = SCALED_LIMITS) {
      return {
        runId,
        systemPrompt: 'You are a careful coding agent.',
        userRequest: 'Make the test suite pass and tell me what you changed.',
        settings: { agent: { model: 'agent-model' }, compaction: { model: 'compaction-model' } },
        maxTurns: script.turns + 5,
        limits,
      };
    },
    async runToEnd(id, script, limits) {
      const { world, taskQueue, workflowId } = bed.freshRun(script);
      const worker = await bed.workerFor(id, taskQueue);
      const handle = await client.workflow.start('agentRun', {
        taskQueue,
        workflowId,
        args: [bed.runInput(workflowId, script, limits)],
      });
      const result = (await worker.runUntil(handle.result())) as RunResult;
      const histories = await executionChain(client, workflowId, handle.firstExecutionRunId);
      return { world, result, histories, journal: journalOf(histories) };
    },
    async teardown() {
      server.close();
      await env.teardown();
    },
  };
  return bed;
}

/** Polls until `probe` finds something; fails after a minute. */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function dataOf<T>(journal: readonly JournalEvent[], type: JournalEvent['type']): T[] {
  return journal.filter((event) => event.type === type).map((event) => event.data as T);
}

export function largestRequest(world: ScriptedWorld): number {
  return Math.max(...world.agentRequests.map((request) => request.bytes));
}
