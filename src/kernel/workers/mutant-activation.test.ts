import { existsSync, readFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { BINARIES } from '../index.ts';
import { mutantActivatedEntry } from './mutant-activation.ts';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

describe('mutantActivatedEntry', () => {
  it('bundles the binary itself when no mutant is active', () => {
    const entry = mutantActivatedEntry(BINARIES.v1.workflowsPath, {});
    expect(entry.workflowsPath).toBe(BINARIES.v1.workflowsPath);
    expect(entry.activate('code')).toBe('code');
  });

  it('wraps the binary in one bundle for every mutant, each process switching its own on before any kernel module loads', async () => {
    const entry = mutantActivatedEntry(BINARIES.v1.workflowsPath, { __STRYKER_ACTIVE_MUTANT__: '42' });
    let code: string;
    try {
      const wrapper = readFileSync(entry.workflowsPath, 'utf8').split('\n');
      expect(wrapper[0]).toMatch(/^import ".*activate-mutant\.js";$/);
      expect(wrapper[1]).toBe(`export * from ${JSON.stringify(BINARIES.v1.workflowsPath)};`);
      ({ code } = await bundleWorkflowCode({ workflowsPath: entry.workflowsPath, logger: silent }));
    } finally {
      entry.dispose();
    }
    expect(existsSync(entry.workflowsPath)).toBe(false);
    // The same files for another mutant: the bundle (and the cache's key) is the same.
    const other = mutantActivatedEntry(BINARIES.v1.workflowsPath, { __STRYKER_ACTIVE_MUTANT__: '7' });
    other.dispose();
    expect(other.workflowsPath).toBe(entry.workflowsPath);
    expect(code).not.toContain('activeMutant: "42"');
    expect(entry.activate(code)).toContain('globalThis.__stryker__ = { activeMutant: "42" };');
    expect(other.activate(code)).toContain('globalThis.__stryker__ = { activeMutant: "7" };');
    expect(other.activate(code)).not.toContain('activeMutant: "42"');
  });

  it('fails a bundle it cannot switch the mutant on in, rather than let the mutant survive', () => {
    const entry = mutantActivatedEntry(BINARIES.v1.workflowsPath, { __STRYKER_ACTIVE_MUTANT__: '42' });
    entry.dispose();
    expect(() => entry.activate('no placeholder here')).toThrow(/mutant 42: the bundle of .*v1\.ts has no mutant placeholder/);
  });
});
