import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioFile } from './registry.ts';
import { foreignTargetOf } from './target-from-scenario.ts';

describe('foreignTargetOf', () => {
  it("takes a scenario's external target, its paths rebased to the folder of the scenario being written", () => {
    const target = foreignTargetOf(scenarioFile('go-tmprl1103'), '/tmp/out');
    expect(target.names).toEqual(['go-v0', 'go-v1']);
    const kernel = resolve('examples/go-kernel');
    const worker = (target.external.binaries as Record<string, { worker: { cwd: string } }>)['go-v0']?.worker;
    expect(resolve('/tmp/out', worker?.cwd ?? '')).toBe(kernel);
    expect(resolve('/tmp/out', target.external.mapping as string)).toBe(resolve(kernel, 'mapping.json'));
  });

  it('refuses a scenario whose target is the kernel', () => {
    expect(() => foreignTargetOf(scenarioFile('tmprl1103'), '/tmp/out')).toThrow(/no external worker/);
  });
});
