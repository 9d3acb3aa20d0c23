/**
 * Launching a run: its input from the mocks' plan for it, started on its binary's task queue
 * through a server that may be down for a moment (a start whose answer was lost is found again).
 */
import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { createMockProvider, type MockProvider } from '../../mocks/index.ts';
import { LONGRUN_SETTINGS, type RunInput, WORKFLOW_TYPE } from '../contract/kernel-api.ts';
import type { BinaryName } from '../kernel/index.ts';
import { mockOptionsOf } from '../scenario/mock-options.ts';
import { durationMs, type Scenario } from '../scenario/scenario-schema.ts';
import { renderStartArgs, type StartValues } from '../scenario/start-args.ts';
import { SERVER_DOWN_TOLERANCE_MS, whileServerDown } from './server-retry.ts';

export interface LaunchContext {
  client: Client;
  scenario: Scenario;
  planFor: MockProvider['planFor'];
  taskQueue(binary: BinaryName): string;
  /** The workflow type the runs start (a foreign target may name its own). */
  workflowType?: string;
  /** The workflow's arguments as a template over the run (a foreign target's `args`); the RunInput alone by default. */
  startArgs?: readonly unknown[];
  /** When the scenario started: workflow ids carry it, so a scenario run again on one server starts afresh. */
  startedAt: Date;
}

export interface LaunchedRun {
  /** longrun's run id: `<scenario>-run-0007`, the index of the mocks' plan. */
  runId: string;
  workflowId: string;
  /** Temporal's id of the run's first execution, where its ContinueAsNew chain starts. */
  firstRunId: string;
  /** The binary it was started on. */
  binary: BinaryName;
  startedAt: Date;
  /** The arguments its workflow was started with. */
  args: unknown[];
}

/** Run `index` of `binary`'s share of the scenario, started. */
export async function launchRun(context: LaunchContext, binary: BinaryName, index: number): Promise<LaunchedRun> {
  const { scenario } = context;
  const runId = `${scenario.name}-run-${String(index).padStart(4, '0')}`;
  const workflowId = `${runId}-${binary}-${context.startedAt.getTime().toString(36)}`;
  const startedAt = new Date();
  const args = startArgsOf(context, runId);
  const firstRunId = await startRun(context.client, context.workflowType ?? WORKFLOW_TYPE, workflowId, {
    taskQueue: context.taskQueue(binary),
    workflowId,
    args,
    workflowExecutionTimeout: durationMs(scenario.runs.timeout) * 2,
    // A start tried again (its answer lost, or its activity retried) must find the run, never start a second.
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
  return { runId, workflowId, firstRunId, binary, startedAt, args };
}

/**
 * The launch context of a scenario whose runs a process without its mocks starts (a harness
 * worker driving it): each run's input planned from the scenario, as its mocks plan it.
 */
export function plannedLaunchContext(
  client: Client,
  scenario: Scenario,
  taskQueues: Record<string, string>,
  startedAt: Date,
): LaunchContext {
  const { planFor } = createMockProvider(mockOptionsOf(scenario));
  const taskQueue = (binary: BinaryName) => {
    const queue = taskQueues[binary];
    if (queue === undefined) throw new Error(`scenario ${scenario.name}: no task queue for binary ${binary}`);
    return queue;
  };
  return { client, scenario, planFor, taskQueue, startedAt };
}

/** The arguments a run's workflow is started with: its RunInput, or a foreign target's template filled in. */
export function startArgsOf(context: StartContext, runId: string): unknown[] {
  const values = startValuesOf(context, runId);
  return context.startArgs ? renderStartArgs(context.startArgs, values) : [values.runInput];
}

type StartContext = Pick<LaunchContext, 'scenario' | 'startArgs'> & {
  planFor(runId: string): Pick<RunInput, 'systemPrompt' | 'userRequest'>;
};

/** What a run's templates may name: its RunInput, user request, system prompt, run id, turn limit. */
export function startValuesOf(context: StartContext, runId: string): StartValues {
  const plan = context.planFor(runId);
  return {
    runInput: runInputOf(context.scenario, runId, plan),
    runId,
    userRequest: plan.userRequest,
    systemPrompt: plan.systemPrompt,
    maxTurns: context.scenario.runs.maxTurns,
  };
}

export function runInputOf(scenario: Scenario, runId: string, plan: Pick<RunInput, 'systemPrompt' | 'userRequest'>): RunInput {
  return {
    runId,
    systemPrompt: plan.systemPrompt,
    userRequest: plan.userRequest,
    settings: LONGRUN_SETTINGS,
    maxTurns: scenario.runs.maxTurns,
    limits: scenario.limits,
  };
}

/** Starts a run, through a server that may be down for a moment; the id of its first execution. */
async function startRun(
  client: Client,
  workflowType: string,
  workflowId: string,
  options: Parameters<Client['workflow']['start']>[1],
): Promise<string> {
  try {
    return await whileServerDown(
      async () => (await client.workflow.start(workflowType, options)).firstExecutionRunId,
      SERVER_DOWN_TOLERANCE_MS,
    );
  } catch (error) {
    // The server took a start whose answer was lost on the way back (the run may have continued as new since).
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    const { raw, runId } = await client.workflow.getHandle(workflowId).describe();
    return raw.workflowExecutionInfo?.firstRunId || runId;
  }
}
