import { describe, expect, it } from 'vitest';
import { replayTargets } from './replay.ts';

describe('replayTargets', () => {
  it("replays a release's histories on itself and every later release in play", () => {
    expect(replayTargets('v0', ['v0', 'v1', 'v2'])).toEqual(['v0', 'v1', 'v2']);
    expect(replayTargets('v1', ['v0', 'v1', 'v2'])).toEqual(['v1', 'v2']);
    expect(replayTargets('v2', ['v0', 'v1', 'v2'])).toEqual(['v2']);
    expect(replayTargets('v1', ['v1'])).toEqual(['v1']);
  });

  it("replays v0's histories on the broken controls (v1 with a switch turned), and theirs on themselves only", () => {
    expect(replayTargets('v0', ['v0', 'ungated'])).toEqual(['v0', 'ungated']);
    expect(replayTargets('v1', ['v1', 'ungated'])).toEqual(['v1']);
    expect(replayTargets('ungated', ['v0', 'ungated', 'v2'])).toEqual(['ungated']);
  });

  it("replays v1's histories on the controls that break v2", () => {
    expect(replayTargets('v1', ['v1', 'history-ungated'])).toEqual(['v1', 'history-ungated']);
    expect(replayTargets('v2', ['v2', 'history-ungated'])).toEqual(['v2']);
  });
});
