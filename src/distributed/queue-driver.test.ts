import { describe, expect, it } from 'vitest';
import { queueDriverOptionsOf } from './queue-driver.ts';

describe("the drive's options from the environment", () => {
  it('takes the bound of runs an execution from LONGRUN_DRIVE_RUNS_PER_EXECUTION, none when unset', () => {
    expect(queueDriverOptionsOf({})).toEqual({});
    expect(queueDriverOptionsOf({ LONGRUN_DRIVE_RUNS_PER_EXECUTION: '' })).toEqual({});
    expect(queueDriverOptionsOf({ LONGRUN_DRIVE_RUNS_PER_EXECUTION: '4' })).toEqual({ runsPerExecution: 4 });
  });

  it('refuses a bound that is not a whole number of at least 1, naming the variable', () => {
    for (const bad of ['0', '-2', '1.5', 'many']) {
      expect(() => queueDriverOptionsOf({ LONGRUN_DRIVE_RUNS_PER_EXECUTION: bad })).toThrow(/LONGRUN_DRIVE_RUNS_PER_EXECUTION .* not /);
    }
  });
});
