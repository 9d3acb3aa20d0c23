/**
 * For the chaos tests: small scenarios that continue as new and compact within a dozen turns,
 * run with every process the runner starts collected, and a probe for processes left behind.
 */
import { readFileSync } from 'node:fs';
import { temporal } from '@temporalio/proto';
import { expect } from 'vitest';
import type { Summary } from '../../result/index.ts';
import { type RunScenarioOptions, runScenario } from '../../runner/run-scenario.ts';
import { type Scenario, type ScenarioInput, scenarioSchema } from '../../scenario/index.ts';
import type { ChaosEvent } from '../chaos-session.ts';

/**
 * smallScenario's runs with 3 minutes instead of 90 s, for chaos that can lose a task (a server
 * crash, its database cut): a task whose completion was never recorded is retried only after its
 * start-to-close (call_model's 2 minutes, run_tool's 90 s), as chaos-database-network.yaml allows.
 */
export const RUNS_OUTLAST_A_LOST_TASK = { count: 2, concurrency: 2, maxTurns: 30, timeout: '3m' };

/** 14 turns of 2 KiB: ContinueAsNew after ~8 turns, compaction at ~10; a 200 ms model keeps turns long enough to strike in. */
export function smallScenario(name: string, input: Partial<ScenarioInput>): Scenario {
  return scenarioSchema.parse({
    name,
    seed: 5,
    limits: { compactionTriggerBytes: 40_000, continueAsNewBytes: 150_000, tailMaxBytes: 8_192 },
    runs: { count: 2, concurrency: 2, maxTurns: 30, timeout: '90s' },
    shape: { overrides: { turns: 14, bytesPerTurn: 2_048 } },
    faults: { agent: [{ fault: { kind: 'latency', ms: 200 } }] },
    expect: [{ on: 'v1', hold: 'all' }],
    ...input,
  });
}

export interface ChaosRun {
  summary: Summary;
  events: ChaosEvent[];
  pids: number[];
}

export async function runChaos(scenario: Scenario, options: RunScenarioOptions = {}): Promise<ChaosRun> {
  const events: ChaosEvent[] = [];
  const summary = await runScenario(scenario, {
    ...options,
    onChaosEvent: (event) => {
      events.push(event);
      options.onChaosEvent?.(event);
    },
  });
  return { summary, events, pids: pidsOf(events) };
}

export function pidsOf(events: readonly ChaosEvent[]): number[] {
  return events.flatMap((event) => (event.type === 'process' ? [event.pid] : []));
}

/** Alive and not a zombie (an exited child not yet reaped is dead for our purpose). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A live process's command line, its arguments joined by spaces. */
/**
 * The processes of `pids` still alive after `graceMs`, each with its command line: a process
 * the runner has just SIGTERMed, or one that watches its parent, may take a moment to go.
 */
export async function aliveAfter(pids: readonly number[], graceMs = 5_000): Promise<string[]> {
  const deadline = Date.now() + graceMs;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return pids.filter(isAlive).map((pid) => {
    try {
      return `${pid} ${commandOf(pid)}`;
    } catch {
      return String(pid);
    }
  });
}

export function commandOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
}

/** Every expectation met, each printed if not; every strike struck; no process left behind. */
export function expectPassed({ summary, pids }: ChaosRun): void {
  const unmet = summary.expectations.filter((e) => !e.met).map((e) => `${e.description}: ${e.detail}`);
  expect(unmet).toEqual([]);
  expect(summary.passed).toBe(true);
  expect(pids.length).toBeGreaterThan(0);
  expect(pids.filter(isAlive)).toEqual([]);
}

/** Workflow tasks scheduled on a worker's sticky queue: none when no worker keeps a cache. */
export function stickyTasks(histories: readonly temporal.api.history.v1.IHistory[]): number {
  const sticky = temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_STICKY;
  return histories.reduce(
    (n, history) => n + (history.events ?? []).filter((e) => e.workflowTaskScheduledEventAttributes?.taskQueue?.kind === sticky).length,
    0,
  );
}

export function strikes(events: readonly ChaosEvent[]): Extract<ChaosEvent, { type: 'strike' }>[] {
  return events.flatMap((event) => (event.type === 'strike' ? [event] : []));
}
