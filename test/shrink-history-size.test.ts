/**
 * `longrun shrink` on the history-size scenario end to end on the real server: v0 reproduces the
 * incident, and the shrunk scenario (v1's run gone, fewer turns or smaller turns) still does.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shrinkCommand } from '../src/cli/commands/shrink.ts';
import { resolveScenario, runScenario } from '../src/index.ts';

describe('shrink on history-size', () => {
  it('ends with a smaller scenario that still reproduces history-size on v0', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'longrun-shrink-')), 'history-size-shrunk.yaml');
    expect(await shrinkCommand.run(['history-size', '--max-steps', '8', '--out', out])).toBe(0);

    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^# Shrunk by `longrun shrink` from .*history-size\.yaml \(2 runs, 24 turns; one run of it: [\d.]+ s\)\.$/m);
    expect(text).toMatch(/^# Still fails as it did: .*v0 reproduces history-size/m);
    const { scenario } = resolveScenario(out);
    expect(scenario.target).toEqual({ binaries: ['v0'] });
    const turns = scenario.shape.overrides?.turns ?? 24;
    const bytesPerTurn = scenario.shape.overrides?.bytesPerTurn ?? 8192;
    expect(turns * bytesPerTurn).toBeLessThan(24 * 8192);
    console.error(`shrunk: 1 run on v0, ${turns} turns of ${bytesPerTurn} bytes (from 2 runs, 24 turns of 8192)`);

    // The file as written reproduces the incident on its own.
    const summary = await runScenario(scenario, { scenarioFile: out });
    expect(summary.runs.map((run) => [run.binary, run.incidents])).toEqual([['v0', ['history-size']]]);
    expect(summary.passed).toBe(true);
  }, 240_000); // ~45 s alone: the original's run, eight candidates of ~4 s, the result's
});
