import { describe, expect, it } from 'vitest';
import { type ScenarioInput, scenarioSchema } from '../scenario/index.ts';
import { planChaos, strikesAt } from './chaos-plan.ts';

function scenario(chaos: ScenarioInput['chaos'], binaries: string[] = ['v1']) {
  return scenarioSchema.parse({ name: 'plan', seed: 7, target: { binaries }, chaos, expect: [{ on: 'v1', hold: 'all' }] });
}

describe('planChaos', () => {
  it("versions the queue of a versioned upgrade: the new build's workflows and activities as standbys", () => {
    const plan = planChaos(scenario([{ action: 'upgrade-worker', atTurn: 5, to: 'v2', versioning: 'pinned' }]));
    expect(plan.versioning).toEqual(new Map([['v1', 'pinned']]));
    expect(plan.standbys).toEqual([
      { queue: 'v1', runs: 'v2', version: { build: 'v2', behavior: 'pinned' } },
      { queue: 'v1', runs: 'activities', version: { build: 'v2', behavior: 'pinned' } },
    ]);
    expect(plan.steps.map((s) => s.label)).toEqual(['upgrade-worker to v2 (Worker Versioning, pinned) at turn 5']);
  });

  it('refuses another worker step on a versioned queue', () => {
    const versioned = { action: 'upgrade-worker', atTurn: 5, to: 'v2', versioning: 'pinned' } as const;
    expect(() => planChaos(scenario([versioned, { action: 'kill-worker', atTurn: 8 }]))).toThrow(
      'chaos.1: kill-worker on task queue v1, which a versioned upgrade acts on (its workers poll as deployment versions)',
    );
    expect(() => planChaos(scenario([versioned, { ...versioned, to: 'v0' }]))).toThrow(
      'chaos.1: task queue v1 has a versioned upgrade already (one per queue)',
    );
  });

  it('resolves queues, labels, the binaries in play and the standbys strikes will need', () => {
    const plan = planChaos(
      scenario(
        [
          { action: 'upgrade-worker', atTurn: 10, binary: 'v0', to: 'v1' },
          { action: 'kill-worker', after: '5s', binary: 'v0' },
          { action: 'kill-worker', atTurn: 3, part: 'activities' },
          { action: 'network', atTurn: 2, link: 'activities-model', fault: 'down', for: '1s' },
          { action: 'force-replay' },
        ],
        ['v0', 'compaction-fatal'],
      ),
    );
    expect(plan.steps.map((s) => s.label)).toEqual([
      'upgrade-worker v0 to v1 at turn 10',
      'kill-worker v0 (workflows) after 5s',
      'kill-worker (activities) at turn 3',
      'network down on activities-model for 1s at turn 2',
    ]);
    expect(plan.steps.map((s) => s.queues)).toEqual([['v0'], ['v0'], ['v0', 'compaction-fatal'], ['v0', 'compaction-fatal']]);
    expect(plan.binaries).toEqual(['v0', 'compaction-fatal', 'v1']);
    expect(plan.queues).toEqual(['v0', 'compaction-fatal']);
    expect(plan.forceReplay).toBe(true);
    expect(plan.links).toEqual(['activities-model']);
    expect(plan.restartsServer).toBe(false);
    // v0's crashed workflows restart as v0 or, after the upgrade, as v1.
    expect(plan.standbys).toEqual([
      { queue: 'v0', runs: 'v1' },
      { queue: 'v0', runs: 'v0' },
      { queue: 'v0', runs: 'activities' },
      { queue: 'compaction-fatal', runs: 'activities' },
    ]);
  });

  it('plans a foreign target: queues for the binaries that start runs, standbys none can hold, kills of the whole worker', () => {
    const worker = (binary: string) => ({ worker: { argv: ['./go-kernel', 'worker', '--binary', binary] } });
    const plan = planChaos(
      scenarioSchema.parse({
        name: 'plan',
        seed: 7,
        target: { external: { binaries: { 'go-v0': worker('v0'), 'go-v1': { ...worker('v1'), startsRuns: false } } } },
        chaos: [
          { action: 'upgrade-worker', atTurn: 10, to: 'go-v1' },
          { action: 'kill-worker', atTurn: 12 },
        ],
        expect: [{ on: 'go-v1', hold: 'all' }],
      }),
    );
    expect(plan.queues).toEqual(['go-v0']);
    expect(plan.binaries).toEqual(['go-v0', 'go-v1']);
    expect(plan.steps.map((s) => s.label)).toEqual(['upgrade-worker to go-v1 at turn 10', 'kill-worker (both) at turn 12']);
  });

  it('refuses a step naming a binary the scenario does not run', () => {
    expect(() => planChaos(scenario([{ action: 'kill-worker', atTurn: 2, binary: 'v0' }]))).toThrow(
      'chaos.0.binary: v0 is not among target.binaries (v1)',
    );
  });
});

describe('strikesAt', () => {
  const [step] = planChaos(scenario([{ action: 'kill-worker', probability: 0.25, times: 3 }])).steps;
  if (!step) throw new Error('no step');

  it('is seeded: the same run and turn always give the same answer', () => {
    const draws = Array.from({ length: 50 }, (_, turn) => strikesAt(7, step, 'run-0001', turn + 1));
    expect(Array.from({ length: 50 }, (_, turn) => strikesAt(7, step, 'run-0001', turn + 1))).toEqual(draws);
    expect(Array.from({ length: 50 }, (_, turn) => strikesAt(8, step, 'run-0001', turn + 1))).not.toEqual(draws);
  });

  it('strikes at about the probability asked', () => {
    const strikes = Array.from({ length: 4000 }, (_, i) => strikesAt(7, step, `run-${i % 40}`, i)).filter(Boolean).length;
    expect(strikes / 4000).toBeGreaterThan(0.22);
    expect(strikes / 4000).toBeLessThan(0.28);
  });
});
