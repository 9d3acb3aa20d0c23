/**
 * What the runner drives runs on: a server, the mocks and the kernel workers. By default all in
 * this process (fast: workers share it, the mocks answer through MSW), replaying every task when
 * the scenario forces replay and nothing more; for a scenario with chaos steps that strike (or
 * when the caller wants the workers measured apart), worker processes that can be crashed, the
 * mocks over HTTP, and the chaos controller.
 */
import type { temporal } from '@temporalio/proto';
import { createMockProvider, type MockProvider, startInProcessMocks } from '../../mocks/index.ts';
import { type ChaosEvent, type ChaosPlan, type ChaosSessionOptions, planChaos, servedBinaries, startChaosSession } from '../chaos/index.ts';
import { type Environment, startEnvironment } from '../environment/index.ts';
import type { BinaryId, BinaryName } from '../kernel/index.ts';
import { type KernelWorkers, startKernelWorkers, workflowCacheSize } from '../kernel/workers/kernel-workers.ts';
import type { OffloadStore } from '../kernel/workers/offload.ts';
import type { ExpectationRecord } from '../result/index.ts';
import { mockOptionsOf } from '../scenario/mock-options.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { replicaEndpoints } from './mock-replicas.ts';
import { startScenarioStore } from './offload-store.ts';
import { ServerGoneError, startedAgainIfServerDied } from './server-retry.ts';
import { serverExit } from './server-watch.ts';

export interface RunHarness {
  env: Environment;
  mocks: Pick<MockProvider, 'recorder' | 'planFor'>;
  /** Where each binary's runs start. */
  workers: { taskQueue(binary: BinaryName): string };
  /** The scenario's External Storage, when a binary in play offloads. */
  offload?: OffloadStore;
  /** The kernel workers' process, when they run apart from this one (chaos); undefined: this process. */
  workerPid?: () => number | undefined;
  /** Rejects when a worker dies unexpectedly or a chaos step fails. */
  failed: Promise<never>;
  /** Arms the chaos steps (none in process). */
  startChaos(): void;
  /** Stops striking; one record per chaos step, saying whether and how it struck. */
  stopChaos(): Promise<ExpectationRecord[]>;
  /** The binaries that ran a run's workflow tasks, oldest first (in process: the one it started on). */
  servedBy(binary: BinaryName, histories: readonly temporal.api.history.v1.IHistory[]): BinaryName[];
  /** Ends everything it started: gracefully after a clean finish, at once otherwise. */
  close(graceful: boolean): Promise<void>;
}

/**
 * Worker processes and the chaos controller when chaos strikes or the workers are asked apart;
 * this process otherwise (forced replay alone runs here).
 */
export function startHarness(
  scenario: Scenario,
  chaos: ChaosPlan | undefined,
  binaries: readonly BinaryId[],
  queuePrefix: string,
  options: {
    environment?: Environment;
    onChaosEvent?: (event: ChaosEvent) => void;
    signal?: AbortSignal;
    workersApart?: boolean;
    /** The workers' model and sandbox calls go to the first of these `longrun mock-server`s (mock-replicas.ts). */
    mockReplicas?: readonly string[];
  },
): Promise<RunHarness> {
  const environment = options.environment ? { environment: options.environment } : {};
  const signal = options.signal ? { signal: options.signal } : {};
  if ((chaos && chaos.steps.length > 0) || options.workersApart) {
    return startChaosHarness(scenario, chaos ?? planChaos(scenario), queuePrefix, {
      ...environment,
      ...signal,
      ...(options.onChaosEvent ? { onEvent: options.onChaosEvent } : {}),
    });
  }
  return startInProcessHarness(scenario, binaries, queuePrefix, {
    ...environment,
    ...signal,
    forceReplay: chaos?.forceReplay ?? false,
    ...(options.mockReplicas?.[0] ? { mockUrl: options.mockReplicas[0] } : {}),
  });
}

type InProcessOptions = { environment?: Environment; forceReplay?: boolean; signal?: AbortSignal; mockUrl?: string };

/** The in-process harness, started again once when its own server died before any run (server-retry.ts). */
async function startInProcessHarness(
  scenario: Scenario,
  binaries: readonly BinaryId[],
  queuePrefix: string,
  options: InProcessOptions = {},
): Promise<RunHarness> {
  return startedAgainIfServerDied(() => startInProcessHarnessOnce(scenario, binaries, queuePrefix, options), {
    ownServer: !options.environment,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

async function startInProcessHarnessOnce(
  scenario: Scenario,
  binaries: readonly BinaryId[],
  queuePrefix: string,
  options: InProcessOptions,
): Promise<RunHarness> {
  const { environment } = options;
  const env = environment ?? (await startEnvironment({ ...scenario.server, ...(options.signal ? { signal: options.signal } : {}) }));
  // On replicas the runs' plans are still read here (the same seed plans the same runs), but no
  // request is intercepted: the workers' calls go over HTTP to the replica.
  const mocks = options.mockUrl
    ? { ...createMockProvider(mockOptionsOf(scenario)), ...replicaEndpoints(options.mockUrl), close() {} }
    : startInProcessMocks(mockOptionsOf(scenario));
  let offload: OffloadStore | undefined;
  const closeMocksAndEnv = async () => {
    mocks.close();
    await offload?.store.stop();
    if (!environment) await env.teardown();
  };
  // A server that dies while the workers connect fails them with a bare connection timeout: say why.
  const exited = serverExit(env);
  let workers: KernelWorkers;
  try {
    offload = await startScenarioStore(scenario, binaries);
    workers = await startKernelWorkers(
      env,
      binaries,
      { modelBaseUrl: mocks.modelBaseUrl, sandboxBaseUrl: mocks.sandboxBaseUrl },
      queuePrefix,
      {
        maxCachedWorkflows: options.forceReplay ? 0 : workflowCacheSize(scenario.runs.concurrency),
        ...(offload ? { offload: offload.target } : {}),
      },
    );
  } catch (error) {
    const gone = exited(); // before the teardown stops the server
    await closeMocksAndEnv();
    throw gone === undefined ? error : new ServerGoneError(gone, { cause: error });
  }
  return {
    env,
    mocks,
    workers,
    ...(offload ? { offload } : {}),
    failed: workers.failed,
    startChaos() {},
    stopChaos: async () => [],
    servedBy: (binary) => [binary],
    async close() {
      await workers.stop();
      await closeMocksAndEnv();
    },
  };
}

/** Worker processes (the kernel's, or a foreign target's with `options.foreign`) and the chaos controller. */
export async function startChaosHarness(
  scenario: Scenario,
  plan: ChaosPlan,
  queuePrefix: string,
  options: Omit<ChaosSessionOptions, 'queuePrefix'>,
): Promise<RunHarness> {
  // A foreign target's workers keep their own data converter: External Storage is the kernel's arm.
  const offload = options.foreign ? undefined : await startScenarioStore(scenario, plan.binaries);
  let session: Awaited<ReturnType<typeof startChaosSession>>;
  try {
    session = await startChaosSession(scenario, plan, { queuePrefix, ...options, ...(offload ? { offload } : {}) });
  } catch (error) {
    await offload?.store.stop();
    throw error;
  }
  const failed = Promise.race([session.workers.failed, session.controller.failed]);
  failed.catch(() => {});
  return {
    env: session.environment,
    mocks: session.mocks,
    workers: session.workers,
    ...(offload ? { offload } : {}),
    workerPid: () => session.workers.workflowWorkerPid(),
    failed,
    startChaos: () => session.controller.start(),
    async stopChaos() {
      await session.controller.stop();
      return session.controller.verdict();
    },
    servedBy: (binary, histories) => {
      const served = servedBinaries(histories, (identity) => session.workers.binaryOfIdentity(identity));
      return served.length > 0 ? served : [binary];
    },
    async close(graceful) {
      await session.close(graceful);
      await offload?.store.stop();
    },
  };
}
