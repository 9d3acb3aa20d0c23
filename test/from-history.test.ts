/**
 * `longrun scenario from-history` on real breaks: a history of the built-in tmprl1103 run on
 * v0, recorded here, becomes a scenario that, run on v0, breaks on the blob limit at the same
 * turn (within one), scaled or not, and carries no string of the source's payloads; the same
 * from history-size's run on v0 (a foreign worker's: from-history-foreign.test.ts).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveScenario } from '../src/index.ts';
import { loadScenarioFile } from '../src/scenario/index.ts';
import { expectNoSourceStrings, expectSameBreak, fromHistory, runOnce } from './from-history-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'longrun-from-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built-in incident's run on v0 alone, recorded. */
async function recordOnV0(name: string) {
  const { scenario } = resolveScenario(name);
  const source = await runOnce({
    ...scenario,
    target: { binaries: ['v0'] },
    runs: { ...scenario.runs, count: 1, concurrency: 1 },
    expect: scenario.expect.filter((e) => e.on === 'v0' && 'reproduces' in e),
  });
  expect(source.broke?.incident).toBe(name);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, source.json);
  return { ...source, file };
}

describe('longrun scenario from-history', () => {
  it("writes a scenario from a real tmprl1103 history on v0 that breaks on the blob limit at the same turn, scaled or not, and holds none of the source's strings", async () => {
    const source = await recordOnV0('tmprl1103');
    const { text, out } = await fromHistory(dir, source.file, 'replayed.yaml');
    const sha = createHash('sha256').update(readFileSync(source.file)).digest('hex');
    expect(text).toContain(`# From the history ${source.file}`);
    expect(text).toContain(sha);
    expect(text).toMatch(/^ {2}binaries: \[v0\]$/m);
    expect(text).toContain(`# Expected: tmprl1103 again, at turn ${source.broke?.turn} (within one).`);
    expect(text).toContain(`reproduces: { incident: tmprl1103, atTurn: ${source.broke?.turn}, within: 1 }`);

    expectNoSourceStrings(source.json, text);

    const replayed = await runOnce(loadScenarioFile(out));
    expect(replayed.met).toEqual([true]);
    expectSameBreak(source.broke, replayed.broke, 'tmprl1103');
    // Turn by turn, the replay's requests weigh what the source's did, within a sixth of a turn's growth (outputs sized by their escaped bytes).
    for (const [i, bytes] of replayed.requests.entries()) {
      const was = source.requests[i] as number;
      expect(Math.abs(bytes - was), `turn ${i + 1}: ${bytes} bytes, the source's ${was}`).toBeLessThan(2048);
    }

    // A quarter of the sizes, the limits with them: the same turn still.
    const quarter = await fromHistory(dir, source.file, 'quarter.yaml', '--scale', '0.25');
    expect(quarter.text).toMatch(/^ {2}scale: 0\.25$/m);
    const small = await runOnce(loadScenarioFile(quarter.out));
    expect(small.met).toEqual([true]);
    expectSameBreak(source.broke, small.broke, 'tmprl1103 at scale 0.25');
  });

  it('writes a scenario from a real history-size history on v0 that is terminated at the same turn', async () => {
    const source = await recordOnV0('history-size');
    const { text, out } = await fromHistory(dir, source.file, 'history-size.yaml');
    expect(text).toMatch(/limit\.historySize\.error: 2097152/);
    expect(text).toContain(`reproduces: { incident: history-size, atTurn: ${source.broke?.turn}, within: 1 }`);
    const replayed = await runOnce(loadScenarioFile(out));
    expect(replayed.met).toEqual([true]);
    expectSameBreak(source.broke, replayed.broke, 'history-size');
  });
});
