/**
 * Two `longrun mock-server` replicas of a scenario for the tests of runs on replicas, and a tool
 * call of a run sent to one of them as another host's worker would send it.
 */
import { expect } from 'vitest';
import { type MockServer, startMockServer } from '../../../mocks/index.ts';
import { BINARY_HEADER } from '../../contract/run-marker.ts';
import type { Summary } from '../../result/index.ts';
import { mockOptionsOf } from '../../scenario/mock-options.ts';
import type { Scenario } from '../../scenario/scenario-schema.ts';

/** Two replicas of `scenario` on loopback; close them after the test. */
export async function startReplicas(scenario: Scenario): Promise<[MockServer, MockServer]> {
  return (await Promise.all([0, 1].map(() => startMockServer(mockOptionsOf(scenario))))) as [MockServer, MockServer];
}

/** The run's tool call of turn 1 sent to `replica`, `args` its arguments: its HTTP status. */
export async function toolCall(replica: MockServer, runId: string, args: string): Promise<number> {
  const call = { id: 'call-elsewhere', type: 'function', function: { name: 'shell', arguments: args } };
  const response = await fetch(`${replica.sandboxBaseUrl}/tools/shell`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [BINARY_HEADER]: 'v1' },
    body: JSON.stringify({ runId, turn: 1, call }),
  });
  await response.text();
  return response.status;
}

/** Good arguments of the shell tool, and broken ones (no JSON) that every replica refuses. */
export const GOOD_ARGS = '{"seed":1,"bytes":300}';
export const BROKEN_ARGS = '{"seed":1';

/** A run's `requests.accepted`. */
export const requestsAccepted = (run: { invariants: { id: string }[] }) =>
  run.invariants.find((result) => result.id === 'requests.accepted');

/** How many requests of the run `replica` answered or refused. */
export const heardBy = (replica: MockServer, runId: string) => replica.recorder.records().filter((record) => record.runId === runId).length;

/** `smoke`'s runs as another host's worker would split them: run 0000 a good call on `other`, run 0001 a broken one. */
export async function sendElsewhere(other: MockServer): Promise<void> {
  expect(await toolCall(other, 'smoke-run-0000', GOOD_ARGS)).toBe(200);
  // Broken arguments: the other replica refuses them, and only its records say so.
  expect(await toolCall(other, 'smoke-run-0001', BROKEN_ARGS)).toBe(400);
}

/** After `sendElsewhere`: run 0000 counted over both replicas and passed, run 0001 failed on the other's refusal. */
export function expectJudgedOverBoth(summary: Summary, near: MockServer): void {
  const byRun = new Map(summary.runs.map((run) => [run.runId, run]));
  // The run process's workers talked to the first replica: every turn of each run is there.
  expect(heardBy(near, 'smoke-run-0000')).toBeGreaterThan(16);
  expect(requestsAccepted(byRun.get('smoke-run-0000') ?? { invariants: [] })).toEqual({
    id: 'requests.accepted',
    status: 'pass',
    evidence: [`${heardBy(near, 'smoke-run-0000') + 1} requests to the mocks, none refused`],
  });
  expect(requestsAccepted(byRun.get('smoke-run-0001') ?? { invariants: [] })).toEqual({
    id: 'requests.accepted',
    status: 'fail',
    evidence: [
      expect.stringMatching(/^sandbox request \(shell\) of turn 1 refused with HTTP 400: body\.call\.function\.arguments: not valid JSON/),
    ],
  });
}
