/**
 * Everything a chaos scenario runs on: the Temporal server (restartable when a step restarts
 * it), its PostgreSQL when the scenario's persistence is postgres (outliving server restarts),
 * the mocks as an HTTP server on loopback (worker processes cannot see in-process MSW),
 * Toxiproxy on the links that network steps name (the server's to PostgreSQL among them), the
 * worker processes (the kernel's, or a foreign target's commands), and the controller that
 * strikes. `close` ends all of it; nothing
 * it started outlives it.
 */
import { type MockServer, startMockServer } from '../../mocks/index.ts';
import { type Environment, SERVICES, startEnvironment, startPostgres } from '../environment/index.ts';
import type { BinaryName } from '../kernel/index.ts';
import { workflowCacheSize } from '../kernel/workers/kernel-workers.ts';
import type { OffloadStore } from '../kernel/workers/offload.ts';
import { mockOptionsOf } from '../scenario/mock-options.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { ChaosController, type ChaosStrike, type ChaosTargets } from './chaos-controller.ts';
import type { ChaosPlan, NetworkLink } from './chaos-plan.ts';
import type { ForeignCommand } from './foreign-command.ts';
import { ForeignWorkerKind } from './foreign-worker-kind.ts';
import { KernelWorkerKind } from './kernel-worker-kind.ts';
import { type RestartableServer, startRestartableServer } from './restartable-server.ts';
import { startToxiproxy } from './toxiproxy.ts';
import { WorkerDeployments } from './worker-deployments.ts';
import type { WorkerKind } from './worker-kind.ts';
import { WorkerPool } from './worker-pool.ts';

export type ChaosEvent = { type: 'process'; pid: number; what: string } | ({ type: 'strike' } & ChaosStrike);

export interface ChaosSessionOptions {
  /** A server to use instead of starting one (it is not torn down); not with restart-server. */
  environment?: Environment;
  queuePrefix: string;
  /** A foreign target's worker command per binary (`target.external`): its workers instead of the kernel's. */
  foreign?: ReadonlyMap<BinaryName, ForeignCommand>;
  onEvent?: (event: ChaosEvent) => void;
  /** Aborts the start of PostgreSQL and of the server (InterruptedError); the runner checks it again once all is up. */
  signal?: AbortSignal;
  /** The scenario's External Storage (a binary in play offloads): the workers reach it through `workers-store` when a step names that link. */
  offload?: OffloadStore;
}

export interface ChaosSession {
  environment: Environment;
  mocks: MockServer;
  workers: WorkerPool;
  controller: ChaosController;
  /** Ends the workers (gracefully, or at once after a failure or an abort), the proxies, the mocks and the server. */
  close(graceful: boolean): Promise<void>;
}

const signalOf = (options: ChaosSessionOptions) => (options.signal ? { signal: options.signal } : {});

export async function startChaosSession(scenario: Scenario, plan: ChaosPlan, options: ChaosSessionOptions): Promise<ChaosSession> {
  if (plan.restartsServer && options.environment) {
    throw new Error(`scenario ${scenario.name}: restart-server restarts the embedded server longrun starts, not a given environment`);
  }
  const onPostgres = !options.environment && scenario.server.persistence === 'postgres';
  if (plan.links.includes('temporal-postgres') && !onPostgres) {
    throw new Error(
      `scenario ${scenario.name}: network on temporal-postgres cuts the embedded server from the PostgreSQL of server.persistence: postgres`,
    );
  }
  const storeSteps = scenario.chaos.filter((step) => step.action === 'delete-stored' || step.link === 'workers-store');
  if (storeSteps.length > 0 && !options.offload) {
    throw new Error(
      `scenario ${scenario.name}: delete-stored and network on workers-store act on External Storage, which only an offloading binary (v0-offload, v1-offload) uses`,
    );
  }
  const onEvent = options.onEvent ?? (() => {});
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
  };
  try {
    // Toxiproxy first: the server may reach its PostgreSQL through it.
    const toxiproxy = plan.links.length > 0 ? await startToxiproxy() : undefined;
    if (toxiproxy) {
      closers.push(() => toxiproxy.close());
      onEvent({ type: 'process', pid: toxiproxy.pid, what: 'toxiproxy' });
    }
    const proxy = async (link: NetworkLink, name: string, upstream: string) => {
      if (!toxiproxy || !plan.links.includes(link)) return undefined;
      return { name, address: await toxiproxy.proxy(name, upstream) };
    };

    // On PostgreSQL the session owns the cluster, so that a restarted server finds its data again.
    const postgres = onPostgres ? await startPostgres(options.signal) : undefined;
    if (postgres) closers.push(() => postgres.teardown());
    const toPostgres = postgres && (await proxy('temporal-postgres', 'postgres', postgres.address));
    const storage = postgres ? { postgres, ...(toPostgres ? { postgresVia: toPostgres.address } : {}) } : {};

    let server: RestartableServer | undefined;
    let environment: Environment;
    if (plan.restartsServer) {
      server = await startRestartableServer({ dynamicConfig: scenario.server.dynamicConfig, ...storage, ...signalOf(options) });
      environment = server.environment;
    } else {
      environment = options.environment ?? (await startEnvironment({ ...scenario.server, ...storage, ...signalOf(options) }));
    }
    if (!options.environment) closers.push(() => environment.teardown());
    if (plan.restartsDatabase && !environment.postgres) {
      throw new Error(`scenario ${scenario.name}: restart-database restarts the PostgreSQL cluster of server.persistence: postgres`);
    }
    if (environment.postgres) onEvent({ type: 'process', pid: environment.postgres.supervisorPid, what: 'postgres' });
    for (const service of environment.services ? SERVICES : []) {
      const pid = environment.services?.pid(service);
      if (pid !== undefined) onEvent({ type: 'process', pid, what: `temporal ${service} service` });
    }

    const mocks = await startMockServer(mockOptionsOf(scenario));
    closers.push(() => mocks.close());

    const toTemporal = await proxy('worker-temporal', 'temporal', environment.address);
    const toModel = await proxy('activities-model', 'model', new URL(mocks.url).host);
    const offload = options.offload;
    const toStore = offload && (await proxy('workers-store', 'store', new URL(offload.target.endpoint).host));
    const workerAddress = toTemporal?.address ?? environment.address;
    const modelBaseUrl = toModel ? `http://${toModel.address}/v1` : mocks.modelBaseUrl;
    const network: ChaosTargets['network'] = toxiproxy && {
      toxiproxy,
      proxies: {
        'worker-temporal': toTemporal?.name,
        'activities-model': toModel?.name,
        'temporal-postgres': toPostgres?.name,
        'workers-store': toStore?.name,
      },
    };

    // A foreign worker keeps its own cache size unless chaos forces replay.
    const cache = plan.forceReplay ? { maxCachedWorkflows: 0 } : {};
    const kind: WorkerKind = options.foreign
      ? new ForeignWorkerKind({
          commands: options.foreign,
          client: environment.client,
          address: workerAddress,
          namespace: environment.namespace,
          mocks,
          ...(modelBaseUrl !== mocks.modelBaseUrl ? { modelUrl: modelBaseUrl } : {}),
          ...cache,
          userCluster: environment.kind === 'existing',
        })
      : new KernelWorkerKind({
          address: workerAddress,
          namespace: environment.namespace,
          activities: { modelBaseUrl, sandboxBaseUrl: mocks.sandboxBaseUrl },
          maxCachedWorkflows: plan.forceReplay ? 0 : workflowCacheSize(scenario.runs.concurrency),
          runsInFlight: scenario.runs.concurrency,
          ...(offload ? { offload: { ...offload.target, ...(toStore ? { endpoint: `http://${toStore.address}` } : {}) } } : {}),
        });
    const workers = await WorkerPool.start({
      kind,
      binaries: plan.queues,
      standbys: plan.standbys,
      queuePrefix: options.queuePrefix,
      versioning: plan.versioning,
      onWorkerStarted: (worker) => {
        for (const pid of worker.pids) onEvent({ type: 'process', pid, what: worker.describe() });
      },
    });
    let graceful = true;
    closers.push(() => (graceful ? workers.stop() : workers.kill()));

    // A versioned queue's runs start on its first build: the current version before any run starts.
    const deployments = plan.versioning.size > 0 ? new WorkerDeployments(environment.client, environment.namespace) : undefined;
    for (const queue of plan.versioning.keys()) {
      const deployment = workers.deploymentOf(queue);
      if (deployments && deployment) await deployments.setCurrent(deployment.name, deployment.build);
    }

    const controller = new ChaosController(
      plan,
      {
        pool: workers,
        ...(server ? { server } : {}),
        ...(environment.services ? { services: environment.services } : {}),
        ...(network ? { network } : {}),
        ...(environment.postgres ? { database: environment.postgres } : {}),
        ...(deployments ? { deployments } : {}),
        ...(offload ? { store: offload.store } : {}),
      },
      scenario.seed,
      (strike) => onEvent({ type: 'strike', ...strike }),
    );
    closers.push(() => controller.stop());
    return {
      environment,
      mocks,
      workers,
      controller,
      async close(asked) {
        graceful = asked;
        await closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
