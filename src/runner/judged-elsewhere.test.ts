import { describe, expect, it } from 'vitest';
import { resolveScenario } from '../scenario/index.ts';
import { judgedElsewhereRefusal } from './judged-elsewhere.ts';

describe('judgedElsewhereRefusal', () => {
  it('takes a kernel scenario whose workers run in this process', () => {
    expect(judgedElsewhereRefusal(resolveScenario('smoke').scenario, false)).toBeUndefined();
    expect(judgedElsewhereRefusal(resolveScenario('cross-version-replay').scenario, false)).toBeUndefined();
  });

  it('refuses, in one line naming the scenario, what needs more than the histories', () => {
    expect(judgedElsewhereRefusal(resolveScenario('smoke').scenario, true)).toBe(
      'scenario smoke cannot be judged on a task queue: it runs its workers apart (a run served by several builds is told apart by their identities)',
    );
    expect(judgedElsewhereRefusal(resolveScenario('chaos-store').scenario, false)).toMatch(/^scenario chaos-store cannot .*offloads/);
    expect(judgedElsewhereRefusal(resolveScenario('agents-sdk-smoke').scenario, false)).toMatch(/foreign target/);
  });
});
