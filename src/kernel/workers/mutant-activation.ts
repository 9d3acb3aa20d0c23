/**
 * StrykerJS switches its mutants at run time: instrumented code reads the active mutant from
 * `process.env.__STRYKER_ACTIVE_MUTANT__` into `globalThis.__stryker__`. The workflow sandbox has
 * no `process`, so without help every mutant in workflow code would stay off and "survive". When
 * the variable is set, the bundle's entry becomes a wrapper that first runs a module setting the
 * mutant (per workflow, before any kernel module loads), then re-exports the binary.
 *
 * The instrumented code holds every mutant at once, so one bundle serves them all: the wrapper
 * is bundled with a placeholder for the mutant (the same files for every mutant, so the bundle
 * cache keeps it across Stryker's processes), and `activate` writes this process's mutant into
 * the code. Bundling costs seconds a binary; a mutant pays it once, not once per test run.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const ACTIVE_MUTANT_VARIABLE = '__STRYKER_ACTIVE_MUTANT__';
const PLACEHOLDER = JSON.stringify('longrun-active-mutant-placeholder');

export interface BundleEntry {
  workflowsPath: string;
  /** The bundle's code with this process's mutant switched on (unchanged when none is active). */
  activate(code: string): string;
  /** Removes the wrapper's files once bundled. */
  dispose(): void;
}

/** The entry to bundle for `workflowsPath`: itself, or a wrapper that activates the mutant. */
export function mutantActivatedEntry(workflowsPath: string, env: NodeJS.ProcessEnv = process.env): BundleEntry {
  const activeMutant = env[ACTIVE_MUTANT_VARIABLE];
  if (!activeMutant) return { workflowsPath, activate: (code) => code, dispose() {} };
  // Beside the binary: the bundler resolves the SDK's own modules from the entry's folder.
  const dir = join(dirname(workflowsPath), `.stryker-activation-${basename(workflowsPath, '.ts')}`);
  mkdirSync(dir, { recursive: true });
  const activation = join(dir, 'activate-mutant.js');
  writeFileSync(activation, `globalThis.__stryker__ = { activeMutant: ${PLACEHOLDER} };\n`);
  const entry = join(dir, 'workflows.ts');
  writeFileSync(entry, `import ${JSON.stringify(activation)};\nexport * from ${JSON.stringify(workflowsPath)};\n`);
  return {
    workflowsPath: entry,
    activate(code) {
      const activated = code.replace(`activeMutant: ${PLACEHOLDER}`, `activeMutant: ${JSON.stringify(activeMutant)}`);
      // Without its switch every mutant would stay off and survive: fail the run instead.
      if (activated === code) throw new Error(`mutant ${activeMutant}: the bundle of ${workflowsPath} has no mutant placeholder`);
      return activated;
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
