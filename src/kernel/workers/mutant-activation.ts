/**
 * StrykerJS switches its mutants at run time: instrumented code reads the active mutant from
 * `process.env.__STRYKER_ACTIVE_MUTANT__` into `globalThis.__stryker__`. The workflow sandbox has
 * no `process`, so without help every mutant in workflow code would stay off and "survive". When
 * the variable is set, the bundle's entry becomes a wrapper that first runs a module setting the
 * mutant (per workflow, before any kernel module loads), then re-exports the binary.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ACTIVE_MUTANT_VARIABLE = '__STRYKER_ACTIVE_MUTANT__';

export interface BundleEntry {
  workflowsPath: string;
  /** Removes the wrapper's files once bundled. */
  dispose(): void;
}

/** The entry to bundle for `workflowsPath`: itself, or a wrapper that activates the mutant. */
export function mutantActivatedEntry(workflowsPath: string, env: NodeJS.ProcessEnv = process.env): BundleEntry {
  const activeMutant = env[ACTIVE_MUTANT_VARIABLE];
  if (!activeMutant) return { workflowsPath, dispose() {} };
  // Beside the binary: the bundler resolves the SDK's own modules from the entry's folder.
  const dir = mkdtempSync(join(dirname(workflowsPath), '.stryker-mutant-'));
  const activation = join(dir, 'activate-mutant.js');
  writeFileSync(activation, `globalThis.__stryker__ = { activeMutant: ${JSON.stringify(activeMutant)} };\n`);
  const entry = join(dir, 'workflows.ts');
  writeFileSync(entry, `import ${JSON.stringify(activation)};\nexport * from ${JSON.stringify(workflowsPath)};\n`);
  return { workflowsPath: entry, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
