/**
 * Samples memory and CPU of the kernel workers' process (this one, or the workflow worker
 * process when chaos runs the workers apart), of the Temporal server (each of its processes when
 * it runs as one per service) and of its PostgreSQL every `everyMs` while
 * runs are in flight, collects the finished runs' records, and computes
 * the load metrics when stopped. The runner calls start(), addRun() per finished run, stop().
 */
import type { LoadCounters, LoadMetrics, ProcessUsage, ResourceSample, RunRecord } from '../result/index.ts';
import type { Ramp } from '../scenario/soak-schema.ts';
import { computeLoadMetrics } from './load-metrics.ts';
import { readProcessTreeUsage } from './process-tree-usage.ts';
import { ownUsage, readProcessUsage } from './process-usage.ts';

export interface MetricsSamplerOptions {
  /** Between samples, ms (default 1000). */
  everyMs?: number;
  /**
   * Finds the server's pid, asked at every sample: a restarted server is another process, and
   * its old pid may already belong to someone else. Absent: the server is not sampled.
   */
  serverPid?: () => number | undefined;
  /**
   * The server run as one process per service (server.topology services): the pid of each
   * service running now, by name, asked at every sample (chaos restarts one). Given instead of
   * `serverPid`.
   */
  servicePids?: () => ReadonlyMap<string, number>;
  /** Finds PostgreSQL's postmaster (a restart-database makes another), sampled with all its processes. Absent: not sampled. */
  databasePid?: () => number | undefined;
  /**
   * Finds the kernel workers' process when they run apart from this one (chaos: killed and
   * replaced, so asked at every sample); absent: the workers are this process. A sample where
   * it finds none is skipped.
   */
  workerPid?: () => number | undefined;
  /** The runner's counters, read at each sample: throughput over time and per ramp stage. */
  counters?: () => LoadCounters;
  /** The ramp the runs were started on: metrics per stage. */
  ramp?: Ramp;
  /** Samples before this (ms after start) are left out of the RSS growth slopes. */
  warmupMs?: number;
}

const DEFAULT_EVERY_MS = 1000;

export class MetricsSampler {
  private readonly samples: ResourceSample[] = [];
  private readonly runs: RunRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;

  constructor(private readonly options: MetricsSamplerOptions = {}) {
    const everyMs = options.everyMs ?? DEFAULT_EVERY_MS;
    if (!Number.isFinite(everyMs) || everyMs <= 0)
      throw new Error(`MetricsSampler: everyMs must be a positive number of ms, got ${everyMs}`);
  }

  /** Takes the first sample now and then one every `everyMs`. */
  start(): void {
    if (this.timer) throw new Error('MetricsSampler: already started');
    this.startedAt = Date.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.options.everyMs ?? DEFAULT_EVERY_MS);
    // Sampling alone must never keep the process alive.
    this.timer.unref();
  }

  /** A finished run, for throughput and latency. */
  addRun(run: RunRecord): void {
    this.runs.push(run);
  }

  /** Takes a last sample and computes the metrics over the window since start(). */
  stop(): LoadMetrics {
    if (!this.timer) throw new Error('MetricsSampler: stop() before start()');
    clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
    return computeLoadMetrics({
      startedAt: this.startedAt,
      windowMs: Date.now() - this.startedAt,
      runs: this.runs,
      samples: this.samples,
      ...(this.options.ramp ? { ramp: this.options.ramp } : {}),
      ...(this.options.warmupMs !== undefined ? { warmupMs: this.options.warmupMs } : {}),
    });
  }

  private sample(): void {
    const worker = this.readWorker();
    if (!worker) return;
    const server = this.readServer();
    const services = this.readServices();
    const databasePid = this.options.databasePid?.();
    const database = databasePid !== undefined ? readProcessTreeUsage(databasePid) : undefined;
    const counters = this.options.counters?.();
    this.samples.push({
      atMs: Date.now() - this.startedAt,
      worker,
      ...(server ? { server } : {}),
      ...(services ? { services } : {}),
      ...(database ? { database } : {}),
      ...(counters ? { counters: { runsStarted: counters.runsStarted, runsDone: counters.runsDone, turns: counters.turns } } : {}),
    });
  }

  private readWorker(): ProcessUsage | undefined {
    if (!this.options.workerPid) return ownUsage();
    const pid = this.options.workerPid();
    return pid !== undefined ? readProcessUsage(pid) : undefined;
  }

  private readServer(): ProcessUsage | undefined {
    const pid = this.options.serverPid?.();
    return pid !== undefined ? readProcessUsage(pid) : undefined;
  }

  /** Those of the services found that are still there when read; undefined when none is. */
  private readServices(): Record<string, ProcessUsage> | undefined {
    const read = [...(this.options.servicePids?.() ?? [])].flatMap(([service, pid]) => {
      const usage = readProcessUsage(pid);
      return usage ? [[service, usage] as const] : [];
    });
    return read.length > 0 ? Object.fromEntries(read) : undefined;
  }
}
