import { describe, expect, it } from 'vitest';
import { DETECTION_SCENARIOS } from './detection-suite.ts';
import { DEFAULT_SCENARIOS, goSuiteScenario } from './go-suite.ts';

describe('the Go mutation suite', () => {
  it("runs go-detect-guard as detect-guard's twin on go-v1: its shape, limits and server, its v1 expectations", () => {
    const original = DETECTION_SCENARIOS.find((s) => s.name === 'detect-guard');
    const { scenario } = goSuiteScenario('go-detect-guard');
    expect(scenario.name).toBe('go-detect-guard');
    expect(scenario.shape).toEqual(original?.shape);
    expect(scenario.limits).toEqual(original?.limits);
    expect(scenario.server).toEqual(original?.server);
    expect(Object.keys('external' in scenario.target ? scenario.target.external.binaries : {})).toEqual(['go-v1']);
    expect(scenario.expect).toEqual([
      { on: 'go-v1', hold: 'all' },
      { on: 'go-v1', ends: 'completed' },
    ]);
  });

  it('reads every default scenario, a go-* scenario from its file', () => {
    expect(DEFAULT_SCENARIOS.map((name) => goSuiteScenario(name).scenario.name)).toEqual(DEFAULT_SCENARIOS);
    expect(goSuiteScenario('go-smoke').file).toMatch(/scenarios\/go-smoke\.yaml$/);
  });
});
