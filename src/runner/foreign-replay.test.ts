import { describe, expect, it } from 'vitest';
import { foreignReplayPlan } from './foreign-replay.ts';

const replay = { argv: ['go-kernel', 'replay'] };

describe('foreignReplayPlan', () => {
  const plan = foreignReplayPlan(
    new Map([
      ['go-v0', { replay }],
      ['go-v1', { replay }],
      ['go-ungated', { replay, breaks: 'go-v1' }],
      ['go-v2', {}],
    ]),
  );

  it('replays a release on itself and every later one that has a replayer, broken controls included', () => {
    expect(plan.targets('go-v0')).toEqual(['go-v0', 'go-v1', 'go-ungated']);
    expect(plan.targets('go-v1')).toEqual(['go-v1']);
  });

  it("replays a broken control's histories on itself only, and nothing where no binary has a replayer", () => {
    expect(plan.targets('go-ungated')).toEqual(['go-ungated']);
    expect(plan.targets('go-v2')).toEqual([]);
  });
});
