/**
 * Where the kernel's workers run without a chaos step that strikes: in this process, caching no
 * workflow when force-replay is the only chaos step (every workflow task goes to the task queue,
 * none to a worker's sticky queue, so each replays the history), and in processes of their own
 * when the caller asks them apart (`workersApart`), their pids named, their heaps bounded and the
 * workflow tasks taken there. About 25 seconds on two cores.
 */
import type { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandOf, expectPassed, runChaos, smallScenario, stickyTasks } from '../chaos/testing/chaos-runs.ts';
import { type Environment, startEnvironment } from '../environment/index.ts';
import type { ScenarioInput } from '../scenario/index.ts';
import { runScenario } from './run-scenario.ts';

let environment: Environment;
beforeAll(async () => {
  environment = await startEnvironment();
});
afterAll(async () => {
  await environment?.teardown();
});

async function stickyTasksOf(name: string, chaos: ScenarioInput['chaos']) {
  const histories: temporal.api.history.v1.IHistory[] = [];
  const summary = await runScenario(smallScenario(name, { runs: { count: 1, concurrency: 1, maxTurns: 30 }, faults: {}, chaos }), {
    environment,
    onChaosEvent: () => {
      throw new Error('a run in this process starts no process');
    },
    onHistories: async (_, found) => void histories.push(...(await found())),
  });
  expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
  return stickyTasks(histories);
}

describe('force-replay alone', () => {
  it('replays every task in process; the same runs with a cache go sticky', async () => {
    expect(await stickyTasksOf('forced-replay', [{ action: 'force-replay' }])).toBe(0);
    expect(await stickyTasksOf('cached', [])).toBeGreaterThan(10);
  });
});

describe('workers apart', () => {
  it('runs the workflows and the activities in two processes of their own, which take every workflow task', async () => {
    const identities = new Set<string>();
    const commandLines = new Map<string, string>();
    const run = await runChaos(smallScenario('workers-apart', { runs: { count: 1, concurrency: 1, maxTurns: 30 }, faults: {} }), {
      environment,
      workersApart: true,
      onChaosEvent: (event) => event.type === 'process' && commandLines.set(event.what.split(' ')[0] as string, commandOf(event.pid)),
      onHistories: async (_, found) => {
        for (const history of await found()) {
          for (const event of history.events ?? []) {
            const identity = event.workflowTaskStartedEventAttributes?.identity;
            if (identity) identities.add(identity);
          }
        }
      },
    });
    expectPassed(run);
    const processes = run.events.flatMap((event) => (event.type === 'process' ? [event] : []));
    expect(processes.map((p) => p.what.replace(/pid \d+/, 'pid N')).sort()).toEqual(['activities worker (pid N)', 'v1 worker (pid N)']);
    expect(run.pids).not.toContain(process.pid);
    const workflowWorker = processes.find((p) => p.what.startsWith('v1 '))?.pid;
    expect([...identities]).toEqual([`v1@longrun-worker-${workflowWorker}`]);
    // Their heaps bounded for one run in flight: a cache of 4 runs (192 + 4 x 8 MiB), one run's activities (112 + 16).
    expect(commandLines.get('v1')).toMatch(/--max-semi-space-size=4 --max-old-space-size=224 /);
    expect(commandLines.get('activities')).toMatch(/--max-semi-space-size=4 --max-old-space-size=128 /);
  });
});
