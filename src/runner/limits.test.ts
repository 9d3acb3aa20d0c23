import { describe, expect, it } from 'vitest';
import { FIXTURE_LIMITS } from '../result/testing/index.ts';
import { scenarioSchema } from '../scenario/index.ts';
import { checkContextOf, resolveLimits } from './limits.ts';

const scenario = (limits: Record<string, number> = {}) =>
  scenarioSchema.parse({ name: 'limits', seed: 1, runs: { timeout: '90s' }, limits, expect: [{ on: 'v1', hold: 'all' }] });

describe('resolveLimits', () => {
  it("is the deployment's limits when neither the scenario nor the server says otherwise", () => {
    // The fixtures' limits are the deployment's (src/contract/limits.ts).
    expect(resolveLimits(scenario(), undefined)).toEqual(FIXTURE_LIMITS);
  });

  it("takes the server's limits from its dynamic config, and the scenario's blob limit over the server's", () => {
    const server = { 'limit.blobSize.error': 1_000_000, 'limit.historySize.error': '4000000', 'limit.historyCount.error': 900 };
    expect(resolveLimits(scenario(), server)).toMatchObject({
      blobLimitBytes: 1_000_000,
      historySizeLimitBytes: 4_000_000,
      historyCountLimit: 900,
    });
    expect(resolveLimits(scenario({ blobLimitBytes: 500_000, continueAsNewBytes: 150_000 }), server)).toMatchObject({
      blobLimitBytes: 500_000,
      continueAsNewBytes: 150_000,
      compactionTriggerBytes: FIXTURE_LIMITS.compactionTriggerBytes,
    });
  });
});

describe('checkContextOf', () => {
  it("judges by the resolved limits, the scenario's card and tail limits, and its timeout", () => {
    const judged = scenario({ tailMaxBytes: 8_192, compactionTriggerBytes: 40_000 });
    const limits = resolveLimits(judged, { 'limit.blobSize.error': 1_000_000, 'limit.historyCount.error': 900 });
    expect(checkContextOf(judged, limits)).toEqual({
      runTimeoutMs: 90_000,
      limits: {
        blobLimitBytes: 1_000_000,
        compactionTriggerBytes: 40_000,
        continueAsNewBytes: FIXTURE_LIMITS.continueAsNewBytes,
        tailMaxBytes: 8_192,
      },
      historySizeLimitBytes: FIXTURE_LIMITS.historySizeLimitBytes,
      historyCountLimit: 900,
    });
  });
});
