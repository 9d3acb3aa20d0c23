import { describe, expect, it } from 'vitest';
import type { ShrinkResult } from '../../runner/shrink-scenario.ts';
import { shrinkCommand, shrunkText, sizeOf, stepLine } from './shrink.ts';

const ORIGINAL = {
  name: 'history-size',
  seed: 1109,
  target: { binaries: ['v0', 'v1'] },
  runs: { count: 1, concurrency: 1 },
  shape: { overrides: { turns: 24, bytesPerTurn: 8192 } },
  expect: [{ on: 'v0', reproduces: 'history-size' }],
};

describe('shrink', () => {
  it('parses --out and --max-steps (default 30)', () => {
    expect(shrinkCommand.parse(['history-size']).values).toEqual({ 'max-steps': 30 });
    expect(shrinkCommand.parse(['s.yaml', '--out', 'small.yaml', '--max-steps', '5']).values).toEqual({
      out: 'small.yaml',
      'max-steps': 5,
    });
    expect(() => shrinkCommand.parse(['s.yaml', '--max-steps', '0'])).toThrow('--max-steps 0: want a whole number from 1');
  });

  it('says each step: what changed, kept or rejected and why, its wall time', () => {
    expect(
      stepLine({ step: 3, change: 'shape.overrides.turns 24 -> 12', verdict: 'rejected', wallMs: 2_460, why: 'the failure is gone' }),
    ).toBe('step 3: shape.overrides.turns 24 -> 12: rejected (the failure is gone), 2.5 s');
    expect(sizeOf(ORIGINAL)).toBe('2 runs, 24 turns');
    expect(sizeOf({ ...ORIGINAL, shape: { turnsProfile: [{}, {}] } })).toBe('2 runs, 3 turns');
  });

  it('writes the smallest with a header: what it came from, what it still fails on, one run of each', () => {
    const smallest = { ...ORIGINAL, target: { binaries: ['v0'] }, shape: { overrides: { turns: 21, bytesPerTurn: 8192 } } };
    const result: ShrinkResult = {
      failure: new Set(['v0 reproduces history-size', 'v0 fails history.no-termination']),
      wanted: new Set(['v0 reproduces history-size']),
      original: { data: ORIGINAL, wallMs: 8_960 },
      smallest: { data: smallest, wallMs: 4_210, failure: new Set(['v0 reproduces history-size']) },
      steps: [
        { step: 1, change: 'target.binaries [v0, v1] -> [v0]', verdict: 'kept', wallMs: 4_000 },
        { step: 2, change: 'shape.overrides.turns 24 -> 21', verdict: 'kept', wallMs: 4_210 },
      ],
      interrupted: false,
    };
    const text = shrunkText(result, 'scenarios/history-size.yaml');
    expect(text.split('\n').slice(0, 5)).toEqual([
      '# Shrunk by `longrun shrink` from scenarios/history-size.yaml (2 runs, 24 turns; one run of it: 9.0 s).',
      '# Still fails as it did: v0 reproduces history-size.',
      '# This one: 1 run, 21 turns; one run of it: 4.2 s.',
      '# Kept: target.binaries [v0, v1] -> [v0]; shape.overrides.turns 24 -> 21 (2 steps tried).',
      '',
    ]);
    expect(text).toContain('name: history-size-shrunk\n');
  });
});
