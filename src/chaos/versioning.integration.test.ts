/**
 * Upgrades by Worker Versioning on the embedded server, the built-in scenarios as they are:
 * pinned runs stay on their build to their end while the current version moves, and runs that
 * continue as new after the move land on the new build; the old build's workers go once its runs
 * are done. Auto-upgrade runs move mid-execution and replay on the new build. A pinned run moved
 * to the new build mid-execution (a versioning override) is caught by versioning.pinned-build.
 * About three minutes on two cores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Environment, startEnvironment } from '../environment/index.ts';
import type { RunRecord } from '../result/index.ts';
import { resolveScenario } from '../scenario/index.ts';
import { aliveAfter, runChaos, strikes } from './testing/chaos-runs.ts';
import { movePinnedRun } from './testing/move-pinned-run.ts';

let environment: Environment;
beforeAll(async () => {
  environment = await startEnvironment({});
});
afterAll(async () => {
  await environment?.teardown();
});

const pinnedBuild = (record: RunRecord) => record.invariants.find((i) => i.id === 'versioning.pinned-build');
const unmet = (run: Awaited<ReturnType<typeof runChaos>>) =>
  run.summary.expectations.filter((e) => !e.met).map((e) => `${e.description}: ${e.detail}`);

describe('upgrades by Worker Versioning', () => {
  it('chaos-versioning-pinned: runs pinned to v0 end on v0 after the current version moves to v1; later runs are v1 from the start', async () => {
    const run = await runChaos(resolveScenario('chaos-versioning-pinned').scenario, { environment });
    expect(unmet(run)).toEqual([]);
    const [upgrade] = strikes(run.events).map((s) => s.detail);
    expect(upgrade).toMatch(
      /^current version v0 -> v1 .* served until none of the 2 runs open on v0 was left on it \(\d+ ms\), then shut down$/,
    );
    const byBinary = (binary: string) => run.summary.runs.filter((r) => r.binary === binary);
    expect(byBinary('v0').length).toBe(2);
    expect(byBinary('v1').length).toBe(2);
    for (const record of byBinary('v0')) {
      expect(pinnedBuild(record)?.status).toBe('pass');
      expect(pinnedBuild(record)?.evidence).toEqual([
        expect.stringMatching(/^execution 1: v0 \(pinned\), told its target version changed at event \d+$/),
      ]);
    }
    for (const record of byBinary('v1')) expect(pinnedBuild(record)?.evidence).toEqual(['execution 1: v1 (pinned)']);
    for (const record of run.summary.runs) expect(record.invariants.find((i) => i.id === 'replay.cross-version')?.status).toBe('pass');
    expect(await aliveAfter(run.pids)).toEqual([]);
  }, 300_000);

  it('chaos-versioning-upgrade-on-can: runs pinned to v1 move to v2 at their next ContinueAsNew, and replay on v2', async () => {
    const run = await runChaos(resolveScenario('chaos-versioning-upgrade-on-can').scenario, { environment });
    expect(unmet(run)).toEqual([]);
    for (const record of run.summary.runs) {
      expect(record.binary).toBe('v2');
      const evidence = pinnedBuild(record)?.evidence ?? [];
      const executions = evidence.map((line) =>
        /^execution \d+: (v1|v2) \(pinned\)(, told its target version changed at event \d+)?$/.exec(line),
      );
      expect(
        executions.every((e) => e !== null),
        evidence.join('\n'),
      ).toBe(true);
      const builds = executions.map((e) => e?.[1]);
      const firstOnV2 = builds.indexOf('v2');
      // Pinned to v1 until a ContinueAsNew, then v2 for good.
      expect(firstOnV2, evidence.join('\n')).toBeGreaterThan(0);
      expect(builds.slice(0, firstOnV2).every((b) => b === 'v1') && builds.slice(firstOnV2).every((b) => b === 'v2')).toBe(true);
      // The server tells an execution of the move on a task started after it; that one is the last
      // on v1. A ContinueAsNew already under way when the version moved upgrades untold.
      const told = executions.findIndex((e) => e?.[2] !== undefined);
      if (told >= 0) expect(told).toBe(firstOnV2 - 1);
      expect(record.invariants.find((i) => i.id === 'wft.no-retry-loop')?.status).toBe('pass');
      expect(record.invariants.find((i) => i.id === 'replay.cross-version')?.evidence).toEqual(['replayed on v2: identical']);
    }
  }, 300_000);

  it('versioning auto-upgrade: the v0 runs move to v1 at their next workflow task, and v1 replays their v0 part (the patch)', async () => {
    const { scenario } = resolveScenario('chaos-versioning-pinned');
    const run = await runChaos(
      {
        ...scenario,
        name: 'chaos-versioning-auto',
        chaos: [{ action: 'upgrade-worker', atTurn: 5, to: 'v1', versioning: 'auto-upgrade' }],
        expect: [
          { on: 'v1', hold: 'all' },
          { on: 'v1', ends: 'completed' },
        ],
      },
      { environment },
    );
    expect(unmet(run)).toEqual([]);
    const evidence = run.summary.runs.map((r) => pinnedBuild(r)?.evidence).sort();
    expect(evidence).toEqual([['execution 1: v0 -> v1'], ['execution 1: v0 -> v1'], ['execution 1: v1'], ['execution 1: v1']]);
    for (const record of run.summary.runs) {
      expect(record.invariants.find((i) => i.id === 'replay.cross-version')?.evidence).toEqual(['replayed on v1: identical']);
    }
  }, 300_000);

  it('a pinned run moved to v1 mid-execution (a versioning override) fails versioning.pinned-build; the runs left pinned pass', async () => {
    const { scenario } = resolveScenario('chaos-versioning-pinned');
    const moving = new Promise<string>((resolve, reject) => {
      setImmediate(() => movePinnedRun(environment.client, environment.namespace, 'v0', 'v1').then(resolve, reject));
    });
    const run = await runChaos({ ...scenario, name: 'chaos-versioning-moved' }, { environment });
    const moved = await moving;
    // Workflow ids are `<runId>-<binary it started on>-<time>`.
    const record = run.summary.runs.find((r) => moved.startsWith(`${r.runId}-v0-`));
    expect(record?.binary).toBe('v1');
    expect(pinnedBuild(record as RunRecord)?.status).toBe('fail');
    expect(pinnedBuild(record as RunRecord)?.evidence[0]).toMatch(
      /^event \d+: WorkflowTaskCompleted on .*:v1, but the execution is pinned to .*:v0 \(since event \d+\): it moved to another build before its ContinueAsNew$/,
    );
    const others = run.summary.runs.filter((r) => r !== record);
    expect(others.map((r) => pinnedBuild(r)?.status)).toEqual(['pass', 'pass', 'pass']);
    expect(unmet(run)).toEqual([expect.stringMatching(/^on v1: every invariant holds: violated: .*versioning\.pinned-build/)]);
  }, 300_000);
});
