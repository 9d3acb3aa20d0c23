/**
 * External Storage end to end: the binaries that offload with the SDK's own ExternalStorage and
 * the official S3 driver, against the real server and the S3 server longrun builds. Offloading
 * alone keeps tmprl1103's requests out of the history (no TMPRL1103 where v0 loops on it), but
 * not the events of history-count's plan: the event-count limit still terminates the run.
 */
import { describe, expect, it } from 'vitest';
import { resolveScenario, runScenario } from '../src/index.ts';

describe('External Storage (the offloading binaries)', () => {
  it("keeps every request of tmprl1103's plan under the blob limit, in the store instead of the history", async () => {
    const { scenario } = resolveScenario('offload-tmprl1103');
    const summary = await runScenario(scenario);
    expect(summary.expectations.map((e) => [e.description, e.met])).toEqual([
      ['on v0-offload: every run ends completed', true],
      ['on v0-offload: every invariant holds', true],
      ['on v1-offload: every invariant holds', true],
      ['on v1-offload: every run ends completed', true],
    ]);
    const blobLimit = scenario.limits.blobLimitBytes as number;
    for (const run of summary.runs) {
      expect(run.incidents).toEqual([]);
      expect(run.turns.length).toBe(23);
      // Every reference resolves, and the checks read the requests behind them.
      expect(run.invariants.find((i) => i.id === 'payload.references-resolve')?.evidence[0]).toMatch(/^(\d+) of \1 references resolve/);
    }
    // v0 sends requests over the blob limit from turn ~21 (tmprl1103): offloaded, the run goes on to its end.
    const v0 = summary.runs.find((run) => run.binary === 'v0-offload');
    expect(Math.max(...(v0?.turns ?? []).map((turn) => turn.requestBytes))).toBeGreaterThan(blobLimit);
    // Every offloaded request is an object in the store: the append-only run's grow to the end.
    const store = summary.load?.store;
    expect(store?.objects).toBeGreaterThan(23);
    expect(store?.bytes).toBeGreaterThan(2 * blobLimit);
  }, 180_000);

  it("is still terminated on the event-count limit on history-count's plan", async () => {
    const { scenario } = resolveScenario('offload-history-count');
    const summary = await runScenario(scenario);
    expect(summary.expectations.map((e) => [e.description, e.met])).toEqual([['on v0-offload: history-count reproduces', true]]);
    const [run] = summary.runs;
    expect(run?.outcome).toBe('terminated');
    expect(run?.executions.at(-1)?.reason).toBe('Workflow history count exceeds limit.');
    expect(summary.load?.store?.objects).toBeGreaterThan(0);
  }, 300_000);
});
