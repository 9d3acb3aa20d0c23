/**
 * The seam where a scenario's drive is put elsewhere (src/distributed/: a driver workflow on a
 * harness task queue): its runs started on the scenario's schedule, watched and judged there,
 * while this process keeps the mocks and the kernel's workers and hears of each run as it goes.
 * Only the scenarios that can be judged elsewhere (judged-elsewhere.ts) can be driven there.
 */
import type { Client } from '@temporalio/client';
import type { CheckContext, InvariantResult } from '../checks/index.ts';
import type { Environment } from '../environment/index.ts';
import type { BinaryId } from '../kernel/index.ts';
import type { RunRecord } from '../result/index.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import type { LaunchedRun } from './launch.ts';
import { arrivalsOf, type DriveOptions } from './run-driver.ts';

/** A scenario's arrivals as JSON a workflow can hold (src/shared/arrival-loop.ts): a ramp's as its arrivals' offsets. */
export interface DriveSchedule {
  count: number;
  concurrency: number;
  arrivalRate?: number;
  durationMs?: number;
  offsetsMs?: number[];
}

export interface DriveRequest {
  /** The cluster the runs run on, and this process's connection to it for workers. */
  client: Client;
  workerConnection: Environment['workerConnection'];
  /** The resolved scenario: the runs' inputs are planned from it, as the mocks plan them. */
  scenario: Scenario;
  binaries: BinaryId[];
  /** The task queue each binary's runs start on (the kernel's workers of this process). */
  taskQueues: Record<string, string>;
  /** When the scenario started: the runs' workflow ids carry it. */
  startedAt: Date;
  schedule: DriveSchedule;
  timeoutMs: number;
  checkContext: CheckContext;
  inPlay: BinaryId[];
  /** Stops the drive: the runs in flight are stopped, the records judged so far kept. */
  signal: AbortSignal;
  /** Rejects when this process's workers die: the drive cannot go on. */
  failed: Promise<never>;
  started(run: LaunchedRun): void;
  /** A run has ended: the mocks' `requests.accepted` verdict of it (gathered from mock replicas: a promise), which goes into its judging. */
  ended(run: LaunchedRun): InvariantResult | Promise<InvariantResult>;
  judged(run: LaunchedRun, record: RunRecord, stoppedBecause: string | undefined): Promise<void>;
}

export interface RunDriver {
  /** The prefix of the kernel workers' task queues: one an invocation that attaches to the drive serves again. */
  queuePrefix(scenario: Pick<Scenario, 'name' | 'seed'>): string;
  /** Drives every run and resolves once each has been handed to `judged`. */
  drive(request: DriveRequest): Promise<void>;
}

/** The schedule `options` ask for. */
export function scheduleOf(options: Omit<DriveOptions, 'signal'>): DriveSchedule {
  const { offsetMs, ...arrivals } = arrivalsOf(options);
  if (!offsetMs) return arrivals;
  const offsetsMs: number[] = [];
  for (let offset = offsetMs(0); offset !== undefined; offset = offsetMs(offsetsMs.length)) offsetsMs.push(offset);
  return { ...arrivals, offsetsMs };
}
