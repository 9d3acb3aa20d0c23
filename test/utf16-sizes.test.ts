/**
 * Issue 14: a kernel that counts UTF-16 code units instead of UTF-8 bytes is caught by a
 * built-in scenario as it ships (its default non-ASCII share), while v1 holds on the same runs.
 */
import { describe, expect, it } from 'vitest';
import { resolveScenario, runScenario, scenarioSchema } from '../src/index.ts';

describe('the utf16-sizes control on the built-in smoke scenario', () => {
  it('fails hold: all where v1 holds', async () => {
    const { scenario } = resolveScenario('smoke');
    expect(scenario.shape.text).toBeUndefined();
    expect(scenario.expect).toEqual([
      { on: 'v1', hold: 'all' },
      { on: 'v1', ends: 'completed' },
    ]);
    const swapped = scenarioSchema.parse({
      ...scenario,
      target: { ...scenario.target, binaries: ['v1', 'utf16-sizes'] },
      expect: [
        { on: 'v1', hold: 'all' },
        { on: 'utf16-sizes', hold: 'all' },
      ],
    });
    const summary = await runScenario(swapped);
    const [onV1, onUtf16] = summary.expectations;
    expect(onV1?.met, onV1?.detail).toBe(true);
    expect(onUtf16?.met, onUtf16?.detail).toBe(false);
    const failed = summary.runs
      .filter((run) => run.binary === 'utf16-sizes')
      .flatMap((run) => run.invariants.filter((i) => i.status === 'fail').map((i) => i.id));
    expect(failed).toContain('compaction.trigger');
    expect(failed).toContain('can.carry-over');
  });

  it('passes everything on ASCII content: the catch is the non-ASCII text', async () => {
    const { scenario } = resolveScenario('smoke');
    const ascii = scenarioSchema.parse({
      ...scenario,
      target: { ...scenario.target, binaries: ['utf16-sizes'] },
      shape: { ...scenario.shape, text: { multibyteShare: 0, loneSurrogateShare: 0 } },
      expect: [{ on: 'utf16-sizes', hold: 'all' }],
    });
    const summary = await runScenario(ascii);
    expect(summary.expectations[0]?.met, summary.expectations[0]?.detail).toBe(true);
  });
});
