import { describe, expect, it } from 'vitest';
import { armChaos, armRunTimeout, CHAOS_TIMEOUT_ALLOWANCE_MS, chaosLabel } from './arm-chaos.ts';

describe('armChaos', () => {
  it('gives a calm arm no chaos step and no fault', () => {
    expect(armChaos('v1-offload', 'calm')).toEqual({ chaos: [], faults: {} });
    expect(chaosLabel('v1-offload', 'calm')).toBe('none');
  });

  it("gives every arm worker kills and agent faults, and each its own mechanism's: the card's compaction faults, the store's outage", () => {
    const actions = (binary: Parameters<typeof armChaos>[0]) => {
      const { chaos, faults } = armChaos(binary, 'chaos');
      return {
        steps: chaos.map((step) => step.link ?? step.action),
        agent: faults.agent?.length,
        compaction: faults.compaction?.length ?? 0,
      };
    };
    expect(actions('v0')).toEqual({ steps: ['kill-worker'], agent: 2, compaction: 0 });
    expect(actions('v1')).toEqual({ steps: ['kill-worker'], agent: 2, compaction: 2 });
    expect(actions('v0-offload')).toEqual({ steps: ['kill-worker', 'workers-store', 'workers-store'], agent: 2, compaction: 0 });
    expect(actions('v1-offload')).toEqual({ steps: ['kill-worker', 'workers-store', 'workers-store'], agent: 2, compaction: 2 });
    expect(chaosLabel('v1-offload', 'chaos')).toBe('worker kills, agent model faults, compaction model faults, store outage');
  });
});

describe('armRunTimeout', () => {
  it("keeps the scenario's timeout when calm and allows for the chaos under it", () => {
    expect(armRunTimeout('45s', 'calm')).toBe('45s');
    expect(armRunTimeout('45s', 'chaos')).toBe(45_000 + CHAOS_TIMEOUT_ALLOWANCE_MS);
    expect(armRunTimeout(2_000, 'chaos')).toBe(2_000 + CHAOS_TIMEOUT_ALLOWANCE_MS);
  });
});
