/**
 * Runs plans without the harness, on a worker of its own, N runs at once, each awaited through
 * its result (no history fetch, no checks, no replay): on the baseline workflow, or on the
 * kernel's own workflow with its activities answering from memory (`kernelInput`).
 */
import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';
import type { RunPlan } from '../../mocks/index.ts';
import { type RunInput, type RunResult, WORKFLOW_TYPE } from '../../src/contract/kernel-api.ts';
import type { Environment } from '../../src/environment/index.ts';
import { activityDataConverter, bundleOf, workflowBundle } from '../../src/kernel/workers/workflow-bundles.ts';
import { drive } from '../../src/runner/run-driver.ts';
import { createBareKernelActivities, createBaselineActivities, type PreparedRun, prepareRun } from './baseline-activities.ts';
import type { BaselineInput } from './baseline-types.ts';

export interface BaselineOptions {
  concurrency: number;
  maxTurns: number;
  /** Names the task queue and workflow ids, unique per call. */
  label: string;
  /** Run the kernel's v1 workflow bare, with this input for each plan, instead of the baseline workflow. */
  kernelInput?: (plan: RunPlan) => RunInput;
}

export interface BaselineResult {
  wallMs: number;
  turns: number;
}

/** Tool outputs are made before the clock starts; the worker's start is timed, as runScenario's is. */
export async function runBaseline(env: Environment, plans: readonly RunPlan[], options: BaselineOptions): Promise<BaselineResult> {
  const prepared = new Map<string, PreparedRun>(plans.map((plan) => [plan.runId, prepareRun(plan)]));
  const { kernelInput } = options;
  const workflowBundleOfSide = kernelInput
    ? await workflowBundle('v1')
    : await bundleOf(fileURLToPath(new URL('./baseline-workflow.ts', import.meta.url)));
  const taskQueue = `bench-${kernelInput ? 'kernel' : 'baseline'}-${options.label}`;
  const started = performance.now();
  const worker = await Worker.create({
    connection: env.workerConnection,
    namespace: env.namespace,
    taskQueue,
    workflowBundle: workflowBundleOfSide,
    activities: kernelInput ? createBareKernelActivities(prepared) : createBaselineActivities(prepared),
    dataConverter: activityDataConverter(),
  });
  const running = worker.run();
  let turns = 0;
  try {
    await drive({ count: plans.length, concurrency: options.concurrency, signal: new AbortController().signal }, async (index) => {
      const plan = plans[index] as RunPlan;
      const workflowId = `${plan.runId}-${kernelInput ? 'kernel' : 'baseline'}-${options.label}`;
      if (kernelInput) {
        const result: RunResult = await env.client.workflow.execute(WORKFLOW_TYPE, { taskQueue, workflowId, args: [kernelInput(plan)] });
        turns += result.counters.turns;
        return;
      }
      const input: BaselineInput = {
        runId: plan.runId,
        systemPrompt: plan.systemPrompt,
        userRequest: plan.userRequest,
        model: 'longrun-agent',
        maxTurns: options.maxTurns,
      };
      turns += await env.client.workflow.execute('baselineRun', { taskQueue, workflowId, args: [input] });
    });
  } finally {
    worker.shutdown();
    await running;
  }
  return { wallMs: performance.now() - started, turns };
}
