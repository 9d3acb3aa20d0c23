/**
 * Runs plans without the harness, on a worker of its own, N runs at once, each awaited through
 * its result (no history fetch, no checks, no replay): on the baseline workflow, or on the
 * kernel's own workflow with its activities answering from memory (`kernelInput`); with a
 * `replayer`, each run's history is then fetched and replayed by the SDK alone (the peer).
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
import { fetchAndReplay, type PeerReplayer } from './peer-replay.ts';

export interface BaselineOptions {
  concurrency: number;
  maxTurns: number;
  /** Names the task queue and workflow ids, unique per call. */
  label: string;
  /** Run the kernel's v1 workflow bare, with this input for each plan, instead of the baseline workflow. */
  kernelInput?: (plan: RunPlan) => RunInput;
  /** Fetch each run's history once it has ended and replay it here, while the next runs go on. */
  replayer?: PeerReplayer;
  /** Called at every model call (a turn begins). */
  onTurn?: () => void;
  /** Stops launching (the runs in flight finish). */
  signal?: AbortSignal;
  /** Called when the clock starts: the tool outputs are made, the worker is about to start. */
  onStarted?: () => void;
}

export interface BaselineResult {
  wallMs: number;
  turns: number;
}

/** Tool outputs are made before the clock starts; the worker's start is timed, as runScenario's is. */
export async function runBaseline(env: Environment, plans: readonly RunPlan[], options: BaselineOptions): Promise<BaselineResult> {
  const prepared = new Map<string, PreparedRun>(plans.map((plan) => [plan.runId, prepareRun(plan)]));
  const { kernelInput, replayer, onTurn } = options;
  const workflowBundleOfSide = kernelInput
    ? await workflowBundle('v1')
    : await bundleOf(fileURLToPath(new URL('./baseline-workflow.ts', import.meta.url)));
  const side = replayer ? 'peer' : kernelInput ? 'kernel' : 'baseline';
  const taskQueue = `bench-${side}-${options.label}`;
  const activities = kernelInput ? createBareKernelActivities(prepared, onTurn) : createBaselineActivities(prepared, onTurn);
  const started = performance.now();
  options.onStarted?.();
  const worker = await Worker.create({
    connection: env.workerConnection,
    namespace: env.namespace,
    taskQueue,
    workflowBundle: workflowBundleOfSide,
    activities,
    dataConverter: activityDataConverter(),
  });
  const running = worker.run();
  let turns = 0;
  const replays: Promise<void>[] = [];
  const signal = options.signal ?? new AbortController().signal;
  try {
    await drive({ count: plans.length, concurrency: options.concurrency, signal }, async (index) => {
      const plan = plans[index] as RunPlan;
      const workflowId = `${plan.runId}-${side}-${options.label}`;
      if (kernelInput) {
        const result: RunResult = await env.client.workflow.execute(WORKFLOW_TYPE, { taskQueue, workflowId, args: [kernelInput(plan)] });
        turns += result.counters.turns;
        if (replayer) replays.push(fetchAndReplay(replayer, () => env.client.workflow.getHandle(workflowId).fetchHistory(), workflowId));
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
    await Promise.all(replays);
  } finally {
    worker.shutdown();
    await running;
  }
  return { wallMs: performance.now() - started, turns };
}
