/**
 * `smoke` on the embedded server with its model and sandbox traffic on two `longrun mock-server`
 * replicas (`mockReplicas`): this process's workers talk to the first, the second plays another
 * host's, and each run's `requests.accepted` is gathered from both once it has ended; a replica
 * gone before the runs end leaves them unjudged there, the summary still whole and the exit 2.
 * About 30 seconds on two cores.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../mocks/index.ts';
import { summaryExit } from '../cli/commands/run.ts';
import { type Environment, startEnvironment } from '../environment/index.ts';
import { resolveScenario } from '../scenario/index.ts';
import { runScenario } from './run-scenario.ts';
import { expectJudgedOverBoth, requestsAccepted, sendElsewhere, startReplicas } from './testing/mock-replicas.ts';

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

describe('runs on mock replicas', () => {
  it("judge each run's requests over both replicas: a refusal only the other replica gave fails its run", async () => {
    replicas = await startReplicas(scenario);
    const [near, other] = replicas as [MockServer, MockServer];
    await sendElsewhere(other);

    const summary = await runScenario(scenario, { environment, mockReplicas: [near.url, `${other.url}/`] });
    expectJudgedOverBoth(summary, near);
    // The other replica heard only the call sent to it: the workers of this process talked to the first.
    expect(other.recorder.records().filter((record) => record.status === 200)).toHaveLength(1);
    // Every other invariant held: the refusal alone fails the scenario, a regression (exit 1).
    expect(summary.runs.flatMap((run) => run.invariants.filter((result) => result.status === 'fail').map((result) => result.id))).toEqual([
      'requests.accepted',
    ]);
    expect(summaryExit(summary)).toBe(1);
    expect(summary.totals.inputTokens?.agent).toBeGreaterThan(0);
  });

  it('name a replica gone before the runs ended in their verdicts, and the summary is still whole (exit 2)', async () => {
    replicas = await startReplicas(scenario);
    const [near, other] = replicas as [MockServer, MockServer];
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
      expect(requestsAccepted(run)).toEqual({
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
