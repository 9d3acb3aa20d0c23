/**
 * A scenario whose only chaos is force-replay runs in this process, its workers caching no
 * workflow: every workflow task goes to the task queue, none to a worker's sticky queue, so each
 * replays the history. About 15 seconds on two cores.
 */
import type { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallScenario, stickyTasks } from '../chaos/testing/chaos-runs.ts';
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
      throw new Error('forced replay alone starts no process');
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
