/**
 * Worker crashes, rolling upgrades and forced replay on the embedded server: every run ends by
 * itself, every invariant holds, turns are neither lost nor done twice, and no process the runner
 * started is left. A mid-run upgrade from v0 to the ungated control is caught.
 * About a minute on two cores (worker processes and bundles take seconds each).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Environment, startEnvironment } from '../environment/index.ts';
import type { BinaryId } from '../kernel/index.ts';
import type { ScenarioInput } from '../scenario/index.ts';
import { expectPassed, runChaos, smallScenario, stickyTasks, strikes } from './testing/chaos-runs.ts';

let environment: Environment;
beforeAll(async () => {
  environment = await startEnvironment({ dynamicConfig: { 'limit.blobSize.error': 262_144, 'limit.blobSize.warn': 65_536 } });
});
afterAll(async () => {
  await environment?.teardown();
});

/** cross-version-replay's runs: 24 turns of 8 KiB cross the 150,000-byte trigger at turn ~17 and stay under the blob limit on v0. */
function upgradeScenario(name: string, to: BinaryId, expectation: ScenarioInput['expect'][number]) {
  return smallScenario(name, {
    seed: 3,
    target: { binaries: ['v0'] },
    limits: { blobLimitBytes: 262_144, compactionTriggerBytes: 150_000, tailMaxBytes: 32_768 },
    shape: { screenshots: { share: 0 }, overrides: { turns: 24, bytesPerTurn: 8_192 } },
    faults: {},
    chaos: [{ action: 'upgrade-worker', atTurn: 19, to, overlap: '500ms' }],
    expect: [expectation],
  });
}

describe('chaos on workers', () => {
  it('kill-worker: the workflow worker SIGKILLed mid-turn, twice; its replacement replays and carries on', async () => {
    const run = await runChaos(
      smallScenario('chaos-test-kill', {
        chaos: [
          { action: 'kill-worker', atTurn: 4 },
          { action: 'kill-worker', atTurn: 10 },
        ],
      }),
      { environment },
    );
    expectPassed(run);
    expect(strikes(run.events).map((s) => s.detail)).toEqual([
      expect.stringMatching(/^SIGKILL v1 worker/),
      expect.stringMatching(/^SIGKILL v1 worker/),
    ]);
    for (const record of run.summary.runs) {
      expect(record.outcome).toBe('completed');
      expect(record.executions.length).toBeGreaterThan(1);
      expect(record.turns.map((t) => t.turn)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    }
    // The worker metrics follow the workflow worker process across its kills, never this one.
    const sampled = run.summary.load?.worker.pids ?? [];
    expect(sampled.length).toBeGreaterThanOrEqual(2);
    expect(sampled).not.toContain(process.pid);
    for (const pid of sampled) expect(run.pids).toContain(pid);
  });

  it('force-replay: no worker keeps a cache, so every task replays from history, with a crash on top', async () => {
    let sticky = 0;
    const run = await runChaos(
      smallScenario('chaos-test-replay', { chaos: [{ action: 'force-replay' }, { action: 'kill-worker', atTurn: 6 }] }),
      {
        environment,
        onHistories: async (_, histories) => {
          sticky += stickyTasks(await histories());
        },
      },
    );
    expectPassed(run);
    expect(run.summary.runs.every((r) => r.outcome === 'completed')).toBe(true);
    expect(sticky).toBe(0);
  });

  it('upgrade-worker: v0 runs past the trigger, taken over by v1 mid-run, replay on v1 and hold every invariant', async () => {
    const run = await runChaos(upgradeScenario('chaos-test-upgrade', 'v1', { on: 'v1', hold: 'all' }), { environment });
    expectPassed(run);
    for (const record of run.summary.runs) {
      expect(record.binary).toBe('v1');
      expect(record.compactions.length).toBeGreaterThan(0);
      expect(record.invariants.find((i) => i.id === 'replay.cross-version')?.evidence).toEqual(['replayed on v1: identical']);
    }
  });

  it('upgrade-worker to the ungated control: its takeover of v0 runs fails to replay, and replay.cross-version catches it', async () => {
    const run = await runChaos(upgradeScenario('chaos-test-ungated', 'ungated', { on: 'ungated', violates: ['replay.cross-version'] }), {
      environment,
    });
    expectPassed(run);
    const replay = run.summary.runs.map((r) => r.invariants.find((i) => i.id === 'replay.cross-version'));
    expect(replay.every((r) => r?.status === 'fail' && /Nondeterminism/.test(r.evidence.join(' ')))).toBe(true);
  });
});
