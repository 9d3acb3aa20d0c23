import { describe, expect, it } from 'vitest';
import { BuildProgress } from './build-progress.ts';

describe('a Go build in progress', () => {
  it('says it is downloading until the packages to compile are known', () => {
    expect(new BuildProgress().describe(20_000)).toBe('downloading modules and listing packages, 20 s in');
  });

  it("counts the packages `go build -v` names and estimates the rest at the compile's rate so far", () => {
    const progress = new BuildProgress();
    progress.planned(['internal/cpu', 'fmt', 'go.temporal.io/server/temporal', 'longrun/tools/temporal-server'], 30_000);
    expect(progress.describe(35_000)).toBe('0 of 4 packages compiled, 35 s in');
    progress.onLine('internal/cpu');
    progress.onLine('go: downloading go.temporal.io/server v1.32.1');
    progress.onLine('fmt');
    expect(progress.describe(90_000)).toBe('2 of 4 packages compiled, 1 min 30 s in, about 1 min left');
    progress.onLine('go.temporal.io/server/temporal');
    progress.onLine('longrun/tools/temporal-server');
    expect(progress.describe(200_000)).toBe('all 4 packages compiled, linking, 3 min 20 s in');
  });

  it('counts without an estimate when Go could not list the packages', () => {
    const progress = new BuildProgress();
    progress.planned([], 1_000);
    progress.onLine('fmt');
    expect(progress.describe(61_000)).toBe('1 packages compiled, 1 min 1 s in');
  });
});
