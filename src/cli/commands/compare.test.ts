import { describe, expect, it } from 'vitest';
import { compareCommand } from './compare.ts';

describe('compare parses its flags', () => {
  it('takes the two reports, --max-regression as written, and --json', () => {
    expect(compareCommand.parse(['a', 'b', '--max-regression', 'p99=20%', '--json'])).toEqual({
      values: { 'max-regression': 'p99=20%', json: true },
      positionals: ['a', 'b'],
    });
  });

  it('takes the scenario whose limits to read by path or name', () => {
    expect(compareCommand.parse(['a', 'b', '--scenario', 'nightly-soak']).values.scenario).toBe('nightly-soak');
  });

  it('wants exactly two reports', () => {
    expect(() => compareCommand.parse(['a'])).toThrow('missing the two reports: BASE (the baseline) and NEW');
    expect(() => compareCommand.parse(['a', 'b', 'c'])).toThrow('unexpected argument "c"');
  });

  it('refuses a limit it cannot read before reading any report', async () => {
    await expect(compareCommand.run(['nowhere-a', 'nowhere-b', '--max-regression', 'p99=lots'])).rejects.toThrow(
      '--max-regression p99=lots: want a percentage of the baseline (10%), an amount in ms, or off',
    );
  });

  it('lists every figure key with its default in its help', () => {
    expect(compareCommand.help).toMatch(/^ {2}p99 +turn latency, 99th percentile \(ms; default 20%\)$/m);
    expect(compareCommand.help).toMatch(/^ {2}violations +invariant violations, all runs \(violations; default 0\)$/m);
    expect(compareCommand.help).toMatch(
      /^ {2}tokens-per-turn +input tokens per turn, agent and compaction model \(the token bill\) \(tokens; default 10%\)$/m,
    );
    expect(compareCommand.help).toContain("over it the scenario's compare.maxRegression");
    expect(compareCommand.help).toContain('Exit codes: 0 no figure regressed past its limit; 3 one did');
  });
});
