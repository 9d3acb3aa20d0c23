/** `longrun mutants`: every deliberately broken kernel is caught by the invariants named for it. */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../src/mutants/catalogue.ts';
import { longrun } from './longrun-cli.ts';

describe('longrun mutants', () => {
  it('catches every broken control: score 100%', async () => {
    const result = await longrun(['mutants', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { score: string; mutants: { binary: string; caught: boolean }[] };
    expect(report.mutants.map((m) => m.binary).sort()).toEqual(MUTANTS.map((m) => m.binary).sort());
    expect(report.mutants.filter((m) => !m.caught)).toEqual([]);
    expect(report.score).toBe(`${MUTANTS.length}/${MUTANTS.length} (100%)`);
  });
});
