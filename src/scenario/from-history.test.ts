import { describe, expect, it } from 'vitest';
import { planContextBytes, planRun } from '../../mocks/index.ts';
import { buildRunView } from '../checks/index.ts';
import { AgentRunHistory } from '../checks/testing/index.ts';
import { BINARY_IDS } from '../kernel/index.ts';
import { binaryOfTaskQueue, scenarioFromHistory } from './from-history.ts';
import { parseScenario } from './load-scenario.ts';

const SHA = 'ab'.repeat(32);

/** A run given a production blob limit that broke on it after `turns` turns. */
function brokenRun(turns: number) {
  const run = new AgentRunHistory({ limits: { blobLimitBytes: 2 * 1024 * 1024, compactionTriggerBytes: 1_200_000 } }).turns(turns, {
    tools: [40_000],
  });
  run.history.workflowTask();
  run.history.workflowTaskFailed('PAYLOADS_TOO_LARGE', '[TMPRL1103] Attempted to upload payloads with size that exceeded the error limit.');
  return buildRunView(run.loaded());
}

describe('scenarioFromHistory', () => {
  it('names the binary a kernel task queue ends with', () => {
    expect(binaryOfTaskQueue('longrun-tmprl1103-mx87yp5i-v0', BINARY_IDS)).toBe('v0');
    expect(binaryOfTaskQueue('longrun-x-v1', BINARY_IDS)).toBe('v1');
    expect(binaryOfTaskQueue('longrun-go-tmprl1103-x-go-v0', ['go-v0', 'go-v1'])).toBe('go-v0');
    expect(binaryOfTaskQueue('payments-agents', BINARY_IDS)).toBeUndefined();
    expect(binaryOfTaskQueue(undefined, BINARY_IDS)).toBeUndefined();
  });

  it('writes a valid scenario: the profile, the limits scaled with it to the built-in incident, the incident expected', () => {
    const made = scenarioFromHistory(brokenRun(5), { source: 'incident.json', sha256: SHA, binary: 'v0' });
    expect(made.scale).toBe(0.125);
    const scenario = parseScenario(made.text, 'generated.yaml');
    expect(scenario.target).toEqual({ binaries: ['v0'] });
    // The blob limit falls inside the scaled plan's growth into turn 6, the one that broke, the kernel's with the server's.
    const blob = scenario.server.dynamicConfig['limit.blobSize.error'] as number;
    expect(scenario.limits.blobLimitBytes).toBe(blob);
    const plan = planRun({ seed: scenario.seed, runId: `${scenario.name}-run-0000`, shape: scenario.shape });
    const request = (turn: number) => planContextBytes({ ...plan, turns: plan.turns.slice(0, turn - 1) });
    expect(request(5)).toBeLessThan(blob);
    expect(request(6)).toBeGreaterThan(blob - 300);
    expect(scenario.limits.compactionTriggerBytes).toBeLessThan(1_200_000 * 0.2);
    expect(scenario.shape.scale).toBe(0.125);
    expect(scenario.shape.turnsProfile).toHaveLength(5);
    expect(scenario.shape.turnsProfile?.[0]?.calls).toEqual([{ tool: 'shell', bytes: expect.any(Number), escaped: expect.any(Number) }]);
    expect(scenario.expect).toEqual([{ on: 'v0', reproduces: { incident: 'tmprl1103', atTurn: 6, within: 1 } }]);
    expect(made.text).toContain(`# (sha256 ${SHA})`);
    expect(made.text).toContain('at turn 6');
    // --scale 1: the unscaled variant, for a nightly run.
    const unscaled = parseScenario(scenarioFromHistory(brokenRun(5), { source: 'x', sha256: SHA, binary: 'v0', scale: 1 }).text, 'u.yaml');
    expect(unscaled.server.dynamicConfig).toMatchObject({ 'limit.blobSize.error': 2 * 1024 * 1024 });
  });

  it('asks for the binary when the task queue names none', () => {
    expect(() => scenarioFromHistory(brokenRun(2), { source: 'x', sha256: SHA })).toThrow(/give --binary/);
  });
});
