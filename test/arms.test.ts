/**
 * `longrun arms` end to end on tmprl1103's plan: the five answers on the real server and the S3
 * server, one after another, and the table of what each cost and what broke it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARMS, armOf } from '../src/arms/arms.ts';
import { runArms } from '../src/arms/run-arms.ts';
import { resolveScenario } from '../src/index.ts';
import type { Summary } from '../src/result/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'longrun-arms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('longrun arms', () => {
  it("sets none, External Storage, the state card, both and the provider's compaction side by side on tmprl1103's plan", async () => {
    const { scenario } = resolveScenario('offload-tmprl1103');
    const result = await runArms(scenario, ARMS, { dir, conditions: ['calm'] });
    const by = Object.fromEntries(result.arms.map((arm) => [arm.binary, arm]));
    const [v0, offload, card, both, provider] = [by.v0, by['v0-offload'], by.v1, by['v1-offload'], by['provider-compaction']];
    if (!v0 || !offload || !card || !both || !provider) throw new Error(`an arm is missing: ${Object.keys(by).join(', ')}`);
    // Append-only breaks the blob limit; offloading alone, the card and both hold.
    expect(v0.brokeFirst?.what).toBe('tmprl1103');
    expect(v0.brokeFirst?.turn).toBeLessThan(23);
    for (const arm of [offload, card, both, provider]) expect(arm.brokeFirst).toBeNull();
    // The provider's compaction keeps every request under the blob limit where v0's passes it, and bills fewer agent tokens.
    const largestRequest = (binary: string) => {
      const summary = JSON.parse(readFileSync(join(dir, `${binary}-calm`, 'summary.json'), 'utf8')) as Summary;
      return Math.max(...summary.runs.flatMap((run) => run.turns.map((turn) => turn.requestBytes)));
    };
    expect(largestRequest('provider-compaction')).toBeLessThan(scenario.limits.blobLimitBytes ?? Number.POSITIVE_INFINITY);
    expect(provider.storedObjects).toBe(0);
    expect(provider.inputTokens.agent).toBeLessThan(v0.inputTokens.agent);
    expect(provider.inputTokens.compaction).toBe(0);
    // Only the offloading arms store; their histories carry references instead of requests.
    expect(v0.storedObjects + card.storedObjects).toBe(0);
    expect(offload.storedBytes).toBeGreaterThan(0);
    expect(both.storedBytes).toBeGreaterThan(0);
    expect(offload.historyBytesPerRun.max).toBeLessThan(card.historyBytesPerRun.max / 2);
    // The card bills fewer agent tokens and some compaction tokens; offloading alone saves none.
    expect(card.inputTokens.agent).toBeLessThan(offload.inputTokens.agent);
    expect(card.inputTokens.compaction).toBeGreaterThan(0);
    expect(offload.inputTokens.compaction).toBe(0);
    // The table and every arm's report folder are written.
    expect(readFileSync(join(dir, 'arms.md'), 'utf8')).toContain('| External Storage alone (v0-offload) |');
    expect(JSON.parse(readFileSync(join(dir, 'arms.json'), 'utf8')).arms).toHaveLength(ARMS.length);
    for (const arm of ARMS) expect(existsSync(join(dir, `${arm.binary}-calm`, 'summary.json'))).toBe(true);
  }, 300_000);

  it('runs an arm under its own chaos: the state card and External Storage wait out the store cut off, and say what they met', async () => {
    const { scenario } = resolveScenario('offload-tmprl1103');
    const chaosDir = join(dir, 'chaos');
    const result = await runArms(scenario, [armOf('v1-offload')], { dir: chaosDir, conditions: ['chaos'] });
    const [both] = result.arms;
    const summary = JSON.parse(readFileSync(join(chaosDir, 'v1-offload-chaos', 'summary.json'), 'utf8')) as Summary;
    // What broke, in the run's own evidence, and what the chaos did, so that a failure says why.
    const broken = summary.runs.flatMap((run) =>
      run.invariants
        .filter((invariant) => invariant.status === 'fail')
        .map((invariant) => `${invariant.id}: ${invariant.evidence.join('; ')}`),
    );
    const chaos = summary.expectations.filter((e) => e.description.startsWith('chaos: ')).map((e) => `${e.description}: ${e.detail}`);
    expect(broken, chaos.join('\n')).toEqual([]);
    expect(both).toMatchObject({ chaos: 'worker kills, agent model faults, compaction model faults, store outage', brokeFirst: null });
    expect(summary.expectations.find((e) => e.description === 'chaos: network down on workers-store for 5s at turn 6')?.met).toBe(true);
    expect(summary.runs.map((run) => run.outcome)).toEqual(['completed']);
  }, 300_000);
});
