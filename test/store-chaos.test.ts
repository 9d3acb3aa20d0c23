/**
 * Chaos on External Storage, on the real server and the S3 server: a store cut off and slowed is
 * waited out (the runs end by themselves and hold every invariant); objects deleted mid-run are
 * caught by payload.references-resolve and by the replay, which fails with the S3 driver's own
 * error.
 */
import { describe, expect, it } from 'vitest';
import { resolveScenario, runScenario } from '../src/index.ts';

describe('chaos on External Storage', () => {
  it('waits out a store cut off and slowed: every run ends by itself and holds', async () => {
    const summary = await runScenario(resolveScenario('chaos-store').scenario);
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    expect(summary.expectations.map((e) => e.description)).toEqual(
      expect.arrayContaining(['chaos: network down on workers-store for 5s at turn 6', 'chaos: every run on v1-offload ended by itself']),
    );
    expect(summary.runs.map((run) => run.outcome)).toEqual(['completed', 'completed', 'completed', 'completed']);
  }, 300_000);

  it('catches objects deleted mid-run by payload.references-resolve and by the replay', async () => {
    const summary = await runScenario(resolveScenario('chaos-store-delete').scenario);
    expect(summary.expectations.map((e) => [e.description, e.met])).toEqual([
      ['on v1-offload: payload.references-resolve catch it', true],
      ['on v1-offload: its histories fail on v1-offload', true],
      ['chaos: delete-stored at turn 16', true],
      ['chaos: every run is judged by an expectation on the binary that ran it last', true],
    ]);
    for (const run of summary.runs) {
      const resolve = run.invariants.find((i) => i.id === 'payload.references-resolve');
      expect(resolve?.status).toBe('fail');
      expect(resolve?.evidence[0]).toMatch(/stored payload missing \(driver longrun-s3, key/);
      const replay = run.invariants.find((i) => i.id === 'replay.cross-version');
      expect(replay?.evidence[0]).toMatch(/^replayed on v1-offload: execution 2: .*S3StorageDriver retrieve failed/);
    }
  }, 300_000);
});
