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
  });

  it('wraps the binary in a bundle that sets the mutant before any kernel module loads, then goes away', async () => {
    const entry = mutantActivatedEntry(BINARIES.v1.workflowsPath, { __STRYKER_ACTIVE_MUTANT__: '42' });
    try {
      const wrapper = readFileSync(entry.workflowsPath, 'utf8').split('\n');
      expect(wrapper[0]).toMatch(/^import ".*activate-mutant\.js";$/);
      expect(wrapper[1]).toBe(`export * from ${JSON.stringify(BINARIES.v1.workflowsPath)};`);
      const { code } = await bundleWorkflowCode({ workflowsPath: entry.workflowsPath, logger: silent });
      expect(code).toContain('globalThis.__stryker__ = { activeMutant: "42" };');
    } finally {
      entry.dispose();
    }
    expect(existsSync(entry.workflowsPath)).toBe(false);
  });
});
