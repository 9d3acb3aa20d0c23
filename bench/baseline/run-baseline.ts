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
  /** Stops launching and terminates the kernel's runs in flight: their histories so far are still fetched and replayed. */
  stop?: AbortSignal;
  /** Called once a run's history has replayed (the peer's month deletes the run then, as longrun's month does). */
  onReplayed?: (workflowId: string) => Promise<void>;
  /** Called when the clock starts: the tool outputs are made, the worker is about to start. */
  onStarted?: () => void;
  /** The plans' tool outputs, made beforehand (outside a caller's meter); made here when absent. */
  prepared?: ReadonlyMap<string, PreparedRun>;
}

export interface BaselineResult {
  wallMs: number;
  /** Turns of the runs that ended on their own (a stopped run's are not counted). */
  turns: number;
  runsCompleted: number;
  /** With a replayer: the replayed histories' bytes, the server's own count (as longrun's records). */
  historyBytes: number;
}

export function prepareRuns(plans: readonly RunPlan[]): ReadonlyMap<string, PreparedRun> {
  return new Map(plans.map((plan) => [plan.runId, prepareRun(plan)]));
}

/** Tool outputs are made before the clock starts; the worker's start is timed, as runScenario's is. */
export async function runBaseline(env: Environment, plans: readonly RunPlan[], options: BaselineOptions): Promise<BaselineResult> {
  const prepared = options.prepared ?? prepareRuns(plans);
  const { kernelInput, replayer, onTurn, stop } = options;
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
  let historyBytes = 0;
  let runsCompleted = 0;
  const replays: Promise<void>[] = [];
  const signals = [options.signal, stop].filter((s) => s !== undefined);
  const signal = signals.length > 0 ? AbortSignal.any(signals) : new AbortController().signal;
  const inFlight = new Set<string>();
  const terminate = () => {
    for (const workflowId of inFlight)
      void env.client.workflow
        .getHandle(workflowId)
        .terminate('bench: window closed')
        .catch(() => {});
  };
  stop?.addEventListener('abort', terminate, { once: true });
  const replay = async (workflowId: string) => {
    if (!replayer) return;
    const handle = env.client.workflow.getHandle(workflowId);
    await fetchAndReplay(replayer, () => handle.fetchHistory(), workflowId);
    historyBytes += (await handle.describe()).historySize ?? 0;
    await options.onReplayed?.(workflowId);
  };
  try {
    await drive({ count: plans.length, concurrency: options.concurrency, signal }, async (index) => {
      const plan = plans[index] as RunPlan;
      const workflowId = `${plan.runId}-${side}-${options.label}`;
      if (kernelInput) {
        inFlight.add(workflowId);
        try {
          const result: RunResult = await env.client.workflow.execute(WORKFLOW_TYPE, { taskQueue, workflowId, args: [kernelInput(plan)] });
          turns += result.counters.turns;
          runsCompleted++;
        } catch (error) {
          if (!stop?.aborted) throw error;
        } finally {
          inFlight.delete(workflowId);
        }
        replays.push(replay(workflowId));
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
      runsCompleted++;
    });
    await Promise.all(replays);
  } finally {
    stop?.removeEventListener('abort', terminate);
    worker.shutdown();
    await running;
  }
  return { wallMs: performance.now() - started, turns, runsCompleted, historyBytes };
}
