import { describe, expect, it } from 'vitest';
import type { Summary } from '../result/index.ts';
import type { Scenario } from '../scenario/index.ts';
import { candidatesOf, failureOf, type ScenarioData, shrinkScenario } from './shrink-scenario.ts';

const BASE: ScenarioData = {
  name: 'big',
  seed: 1,
  target: { binaries: ['v0', 'v1'] },
  runs: { count: 8, concurrency: 4, maxTurns: 60, timeout: '1m' },
  shape: { screenshots: { share: 0 }, overrides: { turns: 40, bytesPerTurn: 8192 } },
  faults: { agent: [{ fault: { kind: 'http-500' }, when: { turns: [3] } }] },
  expect: [
    { on: 'v0', reproduces: 'history-size' },
    { on: 'v0', replay: { on: ['v0', 'v1'] } },
    { on: 'v1', hold: 'all' },
  ],
};

/**
 * A stand-in for runScenario: v0 reproduces history-size once its run sends 150 KiB (turns times
 * bytes per turn), and fails history.continue-as-new whatever its size, as v0 does.
 */
function fakeRun(runs: Scenario[]) {
  return async (scenario: Scenario): Promise<Summary> => {
    runs.push(scenario);
    const binaries = 'binaries' in scenario.target ? scenario.target.binaries : [];
    const { turns = 0, bytesPerTurn = 0 } = scenario.shape.overrides ?? {};
    const big = turns * bytesPerTurn >= 150 * 1024;
    const records = binaries.flatMap((binary) =>
      Array.from({ length: scenario.runs.count }, () => ({
        binary,
        incidents: binary === 'v0' && big ? ['history-size'] : [],
        invariants: binary === 'v0' ? [{ id: 'history.continue-as-new', status: 'fail', evidence: [] }] : [],
      })),
    );
    return { runs: records } as unknown as Summary;
  };
}

describe('shrinking a failing scenario', () => {
  it('names the failure by binary: its incidents and failing invariants', () => {
    const summary = {
      runs: [
        { binary: 'v0', incidents: ['history-size'], invariants: [{ id: 'history.no-termination', status: 'fail' }] },
        { binary: 'v1', incidents: [], invariants: [{ id: 'history.no-termination', status: 'pass' }] },
      ],
    } as unknown as Summary;
    expect([...failureOf(summary)]).toEqual(['v0 reproduces history-size', 'v0 fails history.no-termination']);
  });

  it('offers each knob smaller: the binaries that do not fail dropped with their expectations, runs, faults, turns, sizes', () => {
    const knobs = candidatesOf(BASE, new Set(['v0']));
    expect([...knobs.keys()]).toEqual([
      'binaries',
      'runs.count',
      'runs.concurrency',
      'faults.agent',
      'turns',
      'shape.overrides.bytesPerTurn',
    ]);
    // v1 is run no more: it is judged and replayed on no more.
    expect(knobs.get('binaries')?.[0]?.data).toMatchObject({
      target: { binaries: ['v0'] },
      expect: [
        { on: 'v0', reproduces: 'history-size' },
        { on: 'v0', replay: { on: ['v0'] } },
      ],
    });
    expect(knobs.get('runs.count')?.map((c) => c.change)).toEqual(['runs.count 8 -> 4', 'runs.count 8 -> 6', 'runs.count 8 -> 7']);
    // Fewer runs than the concurrency: the concurrency comes down with them.
    expect(knobs.get('runs.count')?.[0]?.data.runs).toMatchObject({ count: 4, concurrency: 4 });
    expect(knobs.get('turns')?.map((c) => c.change)).toEqual([
      'shape.overrides.turns 40 -> 20',
      'shape.overrides.turns 40 -> 30',
      'shape.overrides.turns 40 -> 35',
      'shape.overrides.turns 40 -> 39',
    ]);
    expect(knobs.get('faults.agent')?.map((c) => c.change)).toEqual(['faults.agent 1 -> 0 rules']);
    // The original is never changed in place.
    expect(BASE.shape).toEqual({ screenshots: { share: 0 }, overrides: { turns: 40, bytesPerTurn: 8192 } });
  });

  it("shrinks a recorded run's turns from its end", () => {
    const data = { ...BASE, shape: { turnsProfile: [1, 2, 3, 4].map((n) => ({ calls: [{ tool: 'shell', bytes: n }] })) } };
    const turns = candidatesOf(data, new Set(['v0'])).get('turns');
    expect(turns?.map((c) => c.change)).toEqual(['shape.turnsProfile 4 -> 2 turns', 'shape.turnsProfile 4 -> 3 turns']);
    expect(turns?.[0]?.data.shape).toEqual({ turnsProfile: data.shape.turnsProfile.slice(0, 2) });
    // Expected to break at turn 5 (± 1): fewer than 3 turns could not.
    const atTurn = { ...data, expect: [{ on: 'v0', reproduces: { incident: 'history-size', atTurn: 5, within: 1 } }] };
    expect(
      candidatesOf(atTurn, new Set(['v0']))
        .get('turns')
        ?.map((c) => c.change),
    ).toEqual(['shape.turnsProfile 4 -> 3 turns']);
  });

  it('keeps what still reproduces the incident, and rejects a step that shows only the invariants a short run fails anyway', async () => {
    const runs: Scenario[] = [];
    const steps: string[] = [];
    const result = await shrinkScenario(BASE, {
      run: fakeRun(runs),
      maxSteps: 100,
      fileName: 'big.yaml',
      onStep: (s) => steps.push(`${s.change}: ${s.verdict}`),
    });
    expect([...result.wanted]).toEqual(['v0 reproduces history-size']);
    expect(steps.slice(0, 3)).toEqual([
      'target.binaries [v0, v1] -> [v0]: kept',
      'runs.count 8 -> 4: kept',
      'runs.concurrency 4 -> 2: kept',
    ]);
    expect(steps).toContain('shape.overrides.turns 40 -> 20: kept');
    expect(steps).toContain('shape.overrides.turns 20 -> 10: rejected');
    const smallest = result.smallest.data as {
      runs: unknown;
      faults: unknown;
      shape: { overrides: { turns: number; bytesPerTurn: number } };
    };
    expect(smallest.runs).toMatchObject({ count: 1, concurrency: 1 });
    expect(smallest.faults).toEqual({ agent: [] });
    const { turns, bytesPerTurn } = smallest.shape.overrides;
    expect(turns * bytesPerTurn).toBeGreaterThanOrEqual(150 * 1024);
    // It ends where an eighth off the turns or the sizes loses the incident.
    expect(turns * bytesPerTurn * 0.875).toBeLessThan(150 * 1024);
    expect(result.steps.length).toBe(runs.length - 1);
  });

  it('rejects a step that reproduces the incident but no longer meets an expectation the original met (its turn)', async () => {
    // The incident from 150 KiB; at its turn only from 240 KiB (the original sends 320 KiB).
    const atTurn = async (scenario: Scenario): Promise<Summary> => {
      const summary = await fakeRun([])(scenario);
      const { turns = 0, bytesPerTurn = 0 } = scenario.shape.overrides ?? {};
      const met = turns * bytesPerTurn >= 240 * 1024;
      return { ...summary, expectations: [{ description: 'on v0: history-size at turn 40 ± 1 reproduces', met, detail: '' }] };
    };
    const steps: string[] = [];
    const result = await shrinkScenario(BASE, {
      run: atTurn,
      maxSteps: 100,
      fileName: 'big.yaml',
      onStep: (s) => steps.push(`${s.change}: ${s.verdict}${s.why ? ` (${s.why})` : ''}`),
    });
    expect(steps).toContain('shape.overrides.turns 40 -> 20: rejected (no longer met: on v0: history-size at turn 40 ± 1 reproduces ())');
    const { turns, bytesPerTurn } = (result.smallest.data as { shape: { overrides: { turns: number; bytesPerTurn: number } } }).shape
      .overrides;
    expect(turns * bytesPerTurn).toBeGreaterThanOrEqual(240 * 1024);
  });

  it('tries a rejected change no more, from a scenario smaller elsewhere', async () => {
    const steps: string[] = [];
    await shrinkScenario(BASE, { run: fakeRun([]), maxSteps: 100, fileName: 'big.yaml', onStep: (s) => steps.push(s.change) });
    expect(new Set(steps).size).toBe(steps.length);
  });

  it('stops at the signal and keeps what it found, a candidate cut short deciding nothing', async () => {
    const stop = new AbortController();
    const runs: Scenario[] = [];
    const run = fakeRun(runs);
    const result = await shrinkScenario(BASE, {
      run: async (scenario) => {
        const summary = await run(scenario);
        if (runs.length === 4) stop.abort();
        return { ...summary, partial: runs.length >= 4 };
      },
      signal: stop.signal,
      maxSteps: 100,
      fileName: 'big.yaml',
    });
    expect(result.interrupted).toBe(true);
    expect(result.steps.map((s) => `${s.change}: ${s.verdict}`)).toEqual([
      'target.binaries [v0, v1] -> [v0]: kept',
      'runs.count 8 -> 4: kept',
    ]);
    expect(result.smallest.data.runs).toMatchObject({ count: 4 });
  });

  it('rejects a candidate whose run longrun could not carry out, and goes on', async () => {
    const runs: Scenario[] = [];
    const run = fakeRun(runs);
    const result = await shrinkScenario(BASE, {
      run: async (scenario) => {
        if (runs.length === 1) {
          runs.push(scenario);
          throw new Error('the server stopped');
        }
        return run(scenario);
      },
      maxSteps: 2,
      fileName: 'big.yaml',
    });
    expect(result.steps.map((s) => `${s.change}: ${s.verdict} (${s.why ?? ''})`)).toEqual([
      'target.binaries [v0, v1] -> [v0]: rejected (could not run: the server stopped)',
      'runs.count 8 -> 4: kept ()',
    ]);
  });

  it('stops after --max-steps candidates, and refuses a scenario that does not fail', async () => {
    const runs: Scenario[] = [];
    const result = await shrinkScenario(BASE, { run: fakeRun(runs), maxSteps: 2, fileName: 'big.yaml' });
    expect(result.steps).toHaveLength(2);
    const v1Only = { ...BASE, target: { binaries: ['v1'] }, expect: [{ on: 'v1', hold: 'all' }] };
    await expect(shrinkScenario(v1Only, { run: fakeRun([]), maxSteps: 2, fileName: 'v1.yaml' })).rejects.toThrow(
      'the scenario does not fail',
    );
  });
});
