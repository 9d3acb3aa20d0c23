/**
 * Strikes a scenario's chaos steps while its runs go on: at a time, when any run reaches a turn,
 * or at each turn by a seeded probability. Strikes happen one at a time. Each step's outcome
 * becomes part of the verdict: a chaos scenario whose chaos never struck proved nothing.
 */
import { type ObjectStore, type PostgresCluster, queryPostgres, type ServiceCluster } from '../environment/index.ts';
import type { ExpectationRecord } from '../result/index.ts';
import { sleep } from '../shared/sleep.ts';
import type { ChaosPlan, NetworkLink, PlannedStep } from './chaos-plan.ts';
import { stepDurationMs, strikesAt, upgradeTarget } from './chaos-plan.ts';
import type { RestartableServer } from './restartable-server.ts';
import type { Toxic, Toxiproxy } from './toxiproxy.ts';
import type { WorkerDeployments } from './worker-deployments.ts';
import type { WorkerPool } from './worker-pool.ts';

export interface ChaosTargets {
  pool: WorkerPool;
  server?: RestartableServer;
  /** The server's services as processes of their own (server.topology services). */
  services?: ServiceCluster;
  /** The PostgreSQL cluster under the server (server.persistence postgres). */
  database?: PostgresCluster;
  network?: { toxiproxy: Toxiproxy; proxies: Record<NetworkLink, string | undefined> };
  /** The server's Worker Deployments, for a versioned upgrade. */
  deployments?: WorkerDeployments;
  /** The scenario's External Storage (a binary in play offloads). */
  store?: ObjectStore;
}

export interface ChaosStrike {
  step: number;
  label: string;
  /** Since the controller started. */
  atMs: number;
  tookMs: number;
  detail: string;
}

const DEFAULT_OVERLAP_MS = 2_000;
const DEFAULT_DOWN_MS = 1_000;

export class ChaosController {
  private readonly strikes: ChaosStrike[] = [];
  private readonly errors = new Map<number, string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly turnsSeen = new Set<string>();
  /** Strikes fired but not yet done, per step. */
  private readonly pending = new Map<number, number>();
  private queue: Promise<void> = Promise.resolve();
  private startedAt = 0;
  private stopped = false;
  private unsubscribe: () => void = () => {};
  private rejectFailed: (error: Error) => void = () => {};
  /** Rejects when a strike fails (a worker that does not come back, a server that does not restart). */
  readonly failed: Promise<never>;

  constructor(
    private readonly plan: ChaosPlan,
    private readonly targets: ChaosTargets,
    private readonly seed: number,
    private readonly onStrike: (strike: ChaosStrike) => void = () => {},
  ) {
    this.failed = new Promise<never>((_, reject) => {
      this.rejectFailed = reject;
    });
    this.failed.catch(() => {});
  }

  start(): void {
    this.startedAt = Date.now();
    for (const planned of this.plan.steps) {
      if (planned.step.after !== undefined) {
        this.timers.push(setTimeout(() => this.fire(planned), stepDurationMs(planned.step.after, 0)));
      }
    }
    this.unsubscribe = this.targets.pool.onTurnStarted((runId, turn) => this.onTurn(runId, turn));
  }

  /** No more strikes; waits for the one under way (a network fault is lifted when its time is up). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    for (const timer of this.timers) clearTimeout(timer);
    // A versioned upgrade still waiting for its old build's runs stops waiting: the runs are over.
    this.targets.deployments?.close();
    await this.queue;
  }

  /** One record per step: whether it struck, and how. */
  verdict(): ExpectationRecord[] {
    return this.plan.steps.map((planned) => {
      const struck = this.strikes.filter((s) => s.step === planned.index);
      const error = this.errors.get(planned.index);
      const detail = error
        ? `failed: ${error}`
        : struck.length === 0
          ? 'never struck (the runs ended first)'
          : struck.map((s) => `at ${(s.atMs / 1000).toFixed(1)} s (${s.tookMs} ms): ${s.detail}`).join('; ');
      return { description: `chaos: ${planned.label}`, met: struck.length > 0 && !error, detail };
    });
  }

  private onTurn(runId: string, turn: number): void {
    const key = `${runId}:${turn}`;
    if (this.turnsSeen.has(key)) return;
    this.turnsSeen.add(key);
    for (const planned of this.plan.steps) {
      const { atTurn, probability } = planned.step;
      const strikesSoFar = this.strikes.filter((s) => s.step === planned.index).length + (this.pending.get(planned.index) ?? 0);
      if (atTurn !== undefined && turn >= atTurn && strikesSoFar === 0) this.fire(planned);
      if (probability !== undefined && strikesSoFar < (planned.step.times ?? 1) && strikesAt(this.seed, planned, runId, turn)) {
        this.fire(planned);
      }
    }
  }

  private fire(planned: PlannedStep): void {
    if (this.stopped || this.errors.has(planned.index)) return;
    this.pending.set(planned.index, (this.pending.get(planned.index) ?? 0) + 1);
    const firedAt = Date.now();
    this.queue = this.queue.then(async () => {
      try {
        if (this.stopped) return;
        const detail = await this.strike(planned);
        const strike = { step: planned.index, label: planned.label, atMs: firedAt - this.startedAt, tookMs: Date.now() - firedAt, detail };
        this.strikes.push(strike);
        this.onStrike(strike);
      } catch (error) {
        const message = (error as Error).message.split('\n')[0] ?? '';
        this.errors.set(planned.index, message);
        this.rejectFailed(new Error(`chaos step ${planned.label} failed: ${message}`));
      } finally {
        this.pending.set(planned.index, (this.pending.get(planned.index) ?? 1) - 1);
      }
    });
  }

  private async strike(planned: PlannedStep): Promise<string> {
    const { step } = planned;
    const { pool } = this.targets;
    switch (step.action) {
      case 'kill-worker': {
        const reports = [];
        for (const queue of planned.queues) reports.push(...(await pool.crash(queue, step.part ?? 'workflows', step.to)));
        return reports
          .map((r) => {
            const lost = r.lost.length > 0 ? `, lost ${r.lost.map((a) => a.activityType).join(', ')} in flight` : '';
            return `SIGKILL ${r.killed}${lost}; ${r.replacement} polling ${r.downMs} ms later`;
          })
          .join('; ');
      }
      case 'upgrade-worker': {
        if (step.versioning) return this.versionedUpgrade(planned);
        const overlapMs = stepDurationMs(step.overlap, DEFAULT_OVERLAP_MS);
        const reports = [];
        for (const queue of planned.queues) reports.push(await pool.upgrade(queue, upgradeTarget(step), overlapMs));
        return reports.map((r) => `${r.to} joined ${r.from.join(', ')}, which then shut down`).join('; ');
      }
      case 'restart-server': {
        if (!this.targets.server) throw new Error('no restartable server');
        const downMs = stepDurationMs(step.downFor, DEFAULT_DOWN_MS);
        const started = Date.now();
        await this.targets.server.restart(downMs);
        return `server down for ${downMs} ms, answering again ${Date.now() - started} ms after the stop`;
      }
      case 'restart-database': {
        const database = this.targets.database;
        if (!database) throw new Error('no PostgreSQL cluster to restart');
        const downMs = stepDurationMs(step.downFor, DEFAULT_DOWN_MS);
        const started = Date.now();
        await database.stop();
        await sleep(downMs);
        await database.start();
        return `PostgreSQL down for ${downMs} ms (a fast shutdown), accepting connections again ${Date.now() - started} ms after the stop`;
      }
      case 'restart-service': {
        const services = this.targets.services;
        if (!services || !step.service) throw new Error('no services of their own to restart (server.topology services)');
        const downMs = stepDurationMs(step.downFor, DEFAULT_DOWN_MS);
        const started = Date.now();
        const killed = services.pid(step.service);
        await services.kill(step.service);
        await sleep(downMs);
        await services.start(step.service);
        return `${step.service} service (pid ${killed}) SIGKILLed, down for ${downMs} ms, ready again (pid ${services.pid(step.service)}) ${Date.now() - started} ms after the kill`;
      }
      case 'network':
        return this.networkFault(planned);
      case 'delete-stored': {
        const store = this.targets.store;
        if (!store) throw new Error('no External Storage to delete from');
        const deleted = await store.deleteObjects(step.objects !== undefined ? { count: step.objects } : {});
        // Nothing stored yet: a strike that deleted nothing would prove nothing.
        if (deleted.length === 0) throw new Error('External Storage held no object yet');
        return `deleted ${deleted.length} objects of External Storage (of ${store.bucket})`;
      }
      case 'force-replay':
        throw new Error('force-replay is a setting of the workers, not a strike');
    }
  }

  private async versionedUpgrade(planned: PlannedStep): Promise<string> {
    const { deployments, pool } = this.targets;
    if (!deployments) throw new Error('no Worker Deployments to move the current version of');
    const reports = [];
    for (const queue of planned.queues) reports.push(await pool.upgradeVersioned(queue, upgradeTarget(planned.step), deployments));
    const stoppedEarly = reports.find((r) => r.stoppedEarly);
    if (stoppedEarly) throw new Error(`runs were still open on build ${stoppedEarly.fromBuild} when the chaos stopped`);
    return reports
      .map(
        (r) =>
          `current version ${r.fromBuild} -> ${r.toBuild} (${r.to} joined); ${r.from.join(', ')} served until none of the ${r.pinnedRuns} runs ` +
          `open on ${r.fromBuild} was left on it (${r.drainMs} ms), then shut down`,
      )
      .join('; ');
  }

  private async networkFault(planned: PlannedStep): Promise<string> {
    const { step } = planned;
    const network = this.targets.network;
    const proxy = step.link ? network?.proxies[step.link] : undefined;
    if (!network || !proxy) throw new Error(`no proxy on ${step.link}`);
    const forMs = stepDurationMs(step.for, 0);
    // On the server's link to PostgreSQL, PostgreSQL itself says whether the fault struck.
    const database = step.link === 'temporal-postgres' ? this.targets.database : undefined;
    const cutBefore = database && (await abandonedSessions(database));
    let done: string;
    if (step.fault === 'down') {
      await network.toxiproxy.setEnabled(proxy, false);
      await sleep(forMs);
      await network.toxiproxy.setEnabled(proxy, true);
      done = `${step.link} down for ${forMs} ms`;
    } else {
      const toxic = toxicOf(planned, this.strikes.length);
      await network.toxiproxy.addToxic(proxy, toxic);
      await sleep(forMs);
      await network.toxiproxy.removeToxic(proxy, toxic.name);
      done = `${toxic.type} ${JSON.stringify(toxic.attributes)} on ${step.link} (${toxic.stream ?? 'downstream'}) for ${forMs} ms`;
    }
    if (!database || cutBefore === undefined) return done;
    const cut = (await abandonedSessions(database)) - cutBefore;
    if (step.fault === 'down' && cut === 0) throw new Error(`${done}, but PostgreSQL saw none of the server's sessions cut`);
    return `${done}: PostgreSQL saw ${cut} of the server's sessions cut`;
  }
}

/** Sessions PostgreSQL lost their client of (the connection closed without a goodbye), all databases. */
async function abandonedSessions(database: PostgresCluster): Promise<number> {
  return Number(await queryPostgres(database.address, 'postgres', 'select sum(sessions_abandoned) from pg_stat_database'));
}

function toxicOf(planned: PlannedStep, serial: number): Toxic {
  const { step } = planned;
  const attributes: Record<string, number> =
    step.fault === 'latency'
      ? { latency: step.latencyMs ?? 0, jitter: step.jitterMs ?? 0 }
      : step.fault === 'bandwidth'
        ? { rate: step.rateKBps ?? 0 }
        : { timeout: step.timeoutMs ?? 0 };
  return {
    name: `chaos-${planned.index}-${serial}`,
    type: step.fault as Toxic['type'],
    ...(step.stream ? { stream: step.stream } : {}),
    ...(step.toxicity !== undefined ? { toxicity: step.toxicity } : {}),
    attributes,
  };
}
