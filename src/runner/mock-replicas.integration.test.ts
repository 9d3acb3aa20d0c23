/**
 * `smoke` on the embedded server with its model and sandbox traffic on two `longrun mock-server`
 * replicas (`mockReplicas`): this process's workers talk to the first, the second plays another
 * host's, and each run's `requests.accepted` is gathered from both once it has ended; a replica
 * gone before the runs end leaves them unjudged there, the summary still whole and the exit 2.
 * About 30 seconds on two cores.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../mocks/index.ts';
import { summaryExit } from '../cli/commands/run.ts';
import { BINARY_HEADER } from '../contract/run-marker.ts';
import { type Environment, startEnvironment } from '../environment/index.ts';
import { resolveScenario } from '../scenario/index.ts';
import { mockOptionsOf } from '../scenario/mock-options.ts';
import { runScenario } from './run-scenario.ts';

const { scenario } = resolveScenario('smoke');
let environment: Environment;
let replicas: MockServer[] = [];
beforeAll(async () => {
  environment = await startEnvironment();
});
afterAll(async () => {
  await environment?.teardown();
});
afterEach(async () => {
  await Promise.all(replicas.map((replica) => replica.close().catch(() => {})));
  replicas = [];
});

async function startReplicas(): Promise<[MockServer, MockServer]> {
  replicas = await Promise.all([0, 1].map(() => startMockServer(mockOptionsOf(scenario))));
  return replicas as [MockServer, MockServer];
}

/** A tool call of the run sent to `replica` as another host's worker would: `args` its arguments. */
async function toolCall(replica: MockServer, runId: string, args: string): Promise<number> {
  const call = { id: 'call-elsewhere', type: 'function', function: { name: 'shell', arguments: args } };
  const response = await fetch(`${replica.sandboxBaseUrl}/tools/shell`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [BINARY_HEADER]: 'v1' },
    body: JSON.stringify({ runId, turn: 1, call }),
  });
  await response.text();
  return response.status;
}

const accepted = (run: { invariants: { id: string }[] }) => run.invariants.find((result) => result.id === 'requests.accepted');

describe('runs on mock replicas', () => {
  it("judge each run's requests over both replicas: a refusal only the other replica gave fails its run", async () => {
    const [near, other] = await startReplicas();
    expect(await toolCall(other, 'smoke-run-0000', '{"seed":1,"bytes":300}')).toBe(200);
    // Broken arguments: the other replica refuses them, and only its records say so.
    expect(await toolCall(other, 'smoke-run-0001', '{"seed":1')).toBe(400);

    const summary = await runScenario(scenario, { environment, mockReplicas: [near.url, `${other.url}/`] });
    const byRun = new Map(summary.runs.map((run) => [run.runId, run]));
    const heardNear = (runId: string) => near.recorder.records().filter((record) => record.runId === runId).length;
    // This process's workers talked to the first replica: every turn of each run is there.
    expect(heardNear('smoke-run-0000')).toBeGreaterThan(16);
    expect(other.recorder.records().filter((record) => record.status === 200)).toHaveLength(1);

    expect(accepted(byRun.get('smoke-run-0000') ?? { invariants: [] })).toEqual({
      id: 'requests.accepted',
      status: 'pass',
      evidence: [`${heardNear('smoke-run-0000') + 1} requests to the mocks, none refused`],
    });
    expect(accepted(byRun.get('smoke-run-0001') ?? { invariants: [] })).toEqual({
      id: 'requests.accepted',
      status: 'fail',
      evidence: [
        expect.stringMatching(
          /^sandbox request \(shell\) of turn 1 refused with HTTP 400: body\.call\.function\.arguments: not valid JSON/,
        ),
      ],
    });
    // Every other invariant held: the refusal alone fails the scenario, a regression (exit 1).
    expect(summary.runs.flatMap((run) => run.invariants.filter((result) => result.status === 'fail').map((result) => result.id))).toEqual([
      'requests.accepted',
    ]);
    expect(summaryExit(summary)).toBe(1);
    expect(summary.totals.inputTokens?.agent).toBeGreaterThan(0);
  });

  it('name a replica gone before the runs ended in their verdicts, and the summary is still whole (exit 2)', async () => {
    const [near, other] = await startReplicas();
    let closing: Promise<void> | undefined;
    const summary = await runScenario(scenario, {
      environment,
      mockReplicas: [near.url, other.url],
      progressEveryMs: 200,
      onProgress: () => {
        closing ??= other.close();
      },
    });
    await closing;
    expect(summary.runs).toHaveLength(2);
    for (const run of summary.runs) {
      expect(accepted(run)).toEqual({
        id: 'requests.accepted',
        status: 'fail',
        evidence: [
          expect.stringMatching(
            new RegExp(
              `^the requests could not be gathered: mock replica ${other.url}/longrun/records\\?run=smoke-run-000[01]: fetch failed$`,
            ),
          ),
        ],
      });
    }
    expect(summaryExit(summary)).toBe(2);
  });
});
