import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mutantActivatedEntry } from './mutant-activation.ts';

describe('mutantActivatedEntry', () => {
  it('bundles the binary itself when no mutant is active', () => {
    const entry = mutantActivatedEntry('/k/v1.ts', {});
    expect(entry.workflowsPath).toBe('/k/v1.ts');
  });

  it('wraps the binary: the mutant is set before any kernel module loads, and the wrapper goes away', () => {
    const entry = mutantActivatedEntry('/k/v1.ts', { __STRYKER_ACTIVE_MUTANT__: '42' });
    const wrapper = readFileSync(entry.workflowsPath, 'utf8').split('\n');
    expect(wrapper[0]).toMatch(/^import ".*activate-mutant\.js";$/);
    expect(wrapper[1]).toBe('export * from "/k/v1.ts";');
    const activation = readFileSync(JSON.parse(wrapper[0]?.slice('import '.length, -1) ?? '""') as string, 'utf8');
    expect(activation).toBe('globalThis.__stryker__ = { activeMutant: "42" };\n');
    entry.dispose();
    expect(existsSync(entry.workflowsPath)).toBe(false);
  });
});
