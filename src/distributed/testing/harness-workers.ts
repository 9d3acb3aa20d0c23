/**
 * `longrun harness-worker` processes for the tests and the benchmark: spawned as a user would
 * run them, ready once they say they serve the queue.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Environment, startEnvironment } from '../../environment/index.ts';
import type { Summary } from '../../result/index.ts';
import { runScenario } from '../../runner/run-scenario.ts';
import { resolveScenario, type Scenario } from '../../scenario/index.ts';
import { packagePath } from '../../shared/package-paths.ts';

const base = resolveScenario('cross-version-replay').scenario;
/** v0's runs replay on v1 and v2 and fail on the ungated control: the verdicts hold a nondeterminism to agree on. */
export const QUEUE_SCENARIO: Scenario = { ...base, runs: { ...base.runs, count: 1 } };

export interface OneProcessBaseline {
  readonly env: Environment;
  /** QUEUE_SCENARIO run in one process on `env`: 4 runs, a nondeterminism among them. */
  readonly oneProcess: Summary;
  /** A harness worker on `env`, stopped after the tests if not before. */
  spawnWorker(taskQueue: string, namespace?: string): HarnessWorkerProcess;
}

/** For a describe block: the embedded server and the one-process run its tests compare with. */
export function oneProcessBaseline(): OneProcessBaseline {
  let env: Environment | undefined;
  let oneProcess: Summary | undefined;
  const workers: HarnessWorkerProcess[] = [];
  beforeAll(async () => {
    env = await startEnvironment({ ...QUEUE_SCENARIO.server });
    oneProcess = await runScenario(QUEUE_SCENARIO, { environment: env });
    expect(oneProcess.runs).toHaveLength(4);
    expect(oneProcess.runs.some((run) => run.replays?.some((replay) => replay.result === 'nondeterministic'))).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await stopHarnessWorkers(workers);
    await env?.teardown();
  });
  return {
    get env() {
      return env as Environment;
    },
    get oneProcess() {
      return oneProcess as Summary;
    },
    spawnWorker(taskQueue, namespace) {
      const worker = spawnHarnessWorker((env as Environment).address, taskQueue, namespace);
      workers.push(worker);
      return worker;
    },
  };
}

export interface HarnessWorkerProcess {
  child: ChildProcess;
  /** Resolves once it serves the queue; rejects when it exits first. */
  ready: Promise<void>;
  exited: Promise<number | null>;
  output(): string;
}

export function spawnHarnessWorker(address: string, taskQueue: string, namespace?: string): HarnessWorkerProcess {
  const args = ['harness-worker', '--address', address, '--task-queue', taskQueue, ...(namespace ? ['--namespace', namespace] : [])];
  const child = spawn(process.execPath, [packagePath('bin', 'longrun.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const ready = new Promise<void>((resolve, reject) => {
    const seen = (data: Buffer) => {
      output += data;
      if (output.includes('judging on task queue')) resolve();
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    void exited.then((code) => reject(new Error(`harness-worker exited ${code} before serving: ${output}`)));
  });
  ready.catch(() => {});
  return { child, ready, exited, output: () => output };
}

export interface RunProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

/** `longrun run <args>` against the cluster at `address`, as a user would run it, `env` added to its environment. */
export function spawnRun(address: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): RunProcess {
  const child = spawn(process.execPath, [packagePath('bin', 'longrun.js'), 'run', ...args], {
    env: { ...process.env, ...env, TEMPORAL_ADDRESS: address },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (data: Buffer) => (output += data));
  child.stderr?.on('data', (data: Buffer) => (output += data));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, exited, output: () => output };
}

/** The one report a `run` process wrote under `reportDir`. */
export function reportIn(reportDir: string): Summary {
  const [report] = readdirSync(reportDir);
  return JSON.parse(readFileSync(join(reportDir, report as string, 'summary.json'), 'utf8')) as Summary;
}

/** How many executions the drive under `driveId` (its latest) has run, following its continues-as-new back to the first. */
export async function executionsOf(env: Environment, driveId: string): Promise<number> {
  let runId: string | undefined = (await env.client.workflow.getHandle(driveId).describe()).runId;
  let executions = 0;
  while (runId) {
    executions++;
    const { events } = await env.client.workflow.getHandle(driveId, runId).fetchHistory();
    runId = events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return executions;
}

/** Stops them the way a user does (SIGTERM) and waits for them to go. */
export async function stopHarnessWorkers(workers: readonly HarnessWorkerProcess[]): Promise<void> {
  for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
  await Promise.all(workers.map((worker) => worker.exited));
}

/**
 * What a summary says of its runs and expectations, without what differs from one sitting to the
 * next: ids, times, sizes, and where a run continued as new (the server's suggestion counts
 * events, and a loaded machine's retried workflow tasks add some).
 */
export function verdictsOf(summary: Summary) {
  return {
    passed: summary.passed,
    partial: summary.partial,
    expectations: summary.expectations.map(({ description, met }) => ({ description, met })),
    unexplained: (summary.unexplained ?? []).map(({ runId, binary }) => ({ runId, binary })),
    runs: [...summary.runs]
      .sort((a, b) => `${a.runId} ${a.binary}`.localeCompare(`${b.runId} ${b.binary}`))
      .map((run) => ({
        runId: run.runId,
        binary: run.binary,
        outcome: run.outcome,
        turns: run.turns.length,
        incidents: run.incidents,
        invariants: run.invariants.map(({ id, status }) => ({ id, status })),
        replays: run.replays,
      })),
  };
}
