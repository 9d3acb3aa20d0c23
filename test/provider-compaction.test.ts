/**
 * Provider-side compaction end to end: the provider-compaction binary on tmprl1103's plan against
 * the real server, the mocks answering the OpenAI Responses API. The provider compacts past the
 * trigger, the kernel drops what the compaction item stands for, and every request stays under
 * the blob limit where v0's passes it (TMPRL1103); the card's invariants say why they do not apply.
 */
import { describe, expect, it } from 'vitest';
import { resolveScenario, runScenario } from '../src/index.ts';
import { MUTANTS } from '../src/mutants/catalogue.ts';

describe('provider-side compaction (the provider-compaction binary)', () => {
  it("keeps every request of tmprl1103's plan under the blob limit, and the card's invariants say why they do not apply", async () => {
    const { scenario } = resolveScenario('provider-compaction');
    const summary = await runScenario(scenario);
    expect(summary.expectations.map((e) => [e.description, e.met])).toEqual([
      ['on provider-compaction: every invariant holds', true],
      ['on provider-compaction: every run ends completed', true],
    ]);
    const [run] = summary.runs;
    if (!run) throw new Error('no run');
    expect(run.incidents).toEqual([]);
    expect(run.turns.length).toBe(23);
    // v0 passes the blob limit at turn ~21 on this plan; here the largest request stays near the trigger.
    const largest = Math.max(...run.turns.map((turn) => turn.requestBytes));
    expect(largest).toBeLessThan(scenario.limits.blobLimitBytes as number);
    expect(largest).toBeLessThan((scenario.limits.compactionTriggerBytes as number) * 1.2);
    const status = Object.fromEntries(run.invariants.map((i) => [i.id, i]));
    expect(status['payload.ceiling']?.status).toBe('pass');
    expect(status['rebuild.contract']?.status).toBe('not-applicable');
    expect(status['rebuild.contract']?.evidence[0]).toMatch(/^no card to rebuild around: the provider compacted (once|\d+ times)/);
    expect(status['compaction.trigger']?.status).toBe('not-applicable');
    expect(status['compaction.trigger']?.evidence[0]).toMatch(
      /^the provider compacts, not the kernel: \d+ compaction items? in the requests$/,
    );
    for (const id of ['compaction.card', 'compaction.digest-coverage', 'compaction.failure-continues']) {
      expect(status[id]?.status).toBe('not-applicable');
    }
    // The provider bills the carried compaction as its summary: more than the item's bytes would.
    expect(summary.totals.inputTokens?.agent).toBeGreaterThan(Math.round(summary.totals.requestBytes / 2.7));
    expect(summary.totals.inputTokens?.compaction).toBe(0);
  }, 180_000);

  it('catches the control that ignores the compaction item: its requests grow past the blob limit (TMPRL1103)', async () => {
    const mutant = MUTANTS.find((m) => m.binary === 'compaction-item-ignored');
    if (!mutant) throw new Error('compaction-item-ignored is not in the catalogue');
    const summary = await runScenario(mutant.scenario);
    expect(summary.expectations.map((e) => [e.description, e.met])).toEqual([
      ['on compaction-item-ignored: wft.no-retry-loop catch it', true],
    ]);
    expect(summary.runs.map((run) => run.incidents)).toEqual([['tmprl1103']]);
  }, 180_000);
});
