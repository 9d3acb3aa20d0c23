/**
 * Runs plans on the baseline workflow: a worker of its own, N runs at once, each awaited
 * through its result (no history fetch, no checks, no replay).
 */
import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';
import type { RunPlan } from '../../mocks/index.ts';
import type { Environment } from '../../src/environment/index.ts';
import { activityDataConverter, bundleOf } from '../../src/kernel/workers/workflow-bundles.ts';
import { drive } from '../../src/runner/run-driver.ts';
import { createBaselineActivities, type PreparedRun, prepareRun } from './baseline-activities.ts';
import type { BaselineInput } from './baseline-types.ts';

export interface BaselineOptions {
  concurrency: number;
  maxTurns: number;
  /** Names the task queue and workflow ids, unique per call. */
  label: string;
}

export interface BaselineResult {
  wallMs: number;
  turns: number;
}

/** Tool outputs are made before the clock starts; the worker's start is timed, as runScenario's is. */
export async function runBaseline(env: Environment, plans: readonly RunPlan[], options: BaselineOptions): Promise<BaselineResult> {
  const prepared = new Map<string, PreparedRun>(plans.map((plan) => [plan.runId, prepareRun(plan)]));
  const workflowBundle = await bundleOf(fileURLToPath(new URL('./baseline-workflow.ts', import.meta.url)));
  const taskQueue = `bench-baseline-${options.label}`;
  const started = performance.now();
  const worker = await Worker.create({
    connection: env.workerConnection,
    namespace: env.namespace,
    taskQueue,
    workflowBundle,
    activities: createBaselineActivities(prepared),
    dataConverter: activityDataConverter(),
  });
  const running = worker.run();
  let turns = 0;
  try {
    await drive({ count: plans.length, concurrency: options.concurrency, signal: new AbortController().signal }, async (index) => {
      const plan = plans[index] as RunPlan;
      const input: BaselineInput = {
        runId: plan.runId,
        systemPrompt: plan.systemPrompt,
        userRequest: plan.userRequest,
        model: 'longrun-agent',
        maxTurns: options.maxTurns,
      };
      turns += await env.client.workflow.execute('baselineRun', {
        taskQueue,
        workflowId: `${plan.runId}-baseline-${options.label}`,
        args: [input],
      });
    });
  } finally {
    worker.shutdown();
    await running;
  }
  return { wallMs: performance.now() - started, turns };
}
