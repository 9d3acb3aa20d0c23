/**
 * The rules for workflow code hold for the broken controls' patched kernels too: a control's
 * edits are bundled as workflow code, so a patch that brings in a Node module is caught here,
 * not in the sandbox.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyEdits, type SourceEdit } from '../../src/kernel/binaries/source-patch.ts';
import { BINARIES, BINARY_IDS } from '../../src/kernel/index.ts';
import { checkLayering, readSources, repositoryRules } from './layering.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const sources = readSources(ROOT);
const rules = repositoryRules(ROOT);
const KERNEL = 'src/kernel/';

/** The tree with `edits` applied to the kernel's files. */
function patchedTree(control: string, edits: readonly SourceEdit[]): Map<string, string> {
  const kernel = new Map([...sources].filter(([file]) => file.startsWith(KERNEL)).map(([file, text]) => [file.slice(KERNEL.length), text]));
  const tree = new Map(sources);
  for (const [file, text] of applyEdits(control, kernel, edits)) tree.set(`${KERNEL}${file}`, text);
  return tree;
}

describe("the broken controls' patched kernels", () => {
  // Compared with the tree's own problems, so that a patch is judged on what it adds.
  const unpatched = checkLayering(sources, rules);
  it.each(BINARY_IDS.filter((id) => BINARIES[id].patch))('%s follows the layering and the rules for workflow code', (id) => {
    expect(checkLayering(patchedTree(id, BINARIES[id].patch ?? []), rules)).toEqual(unpatched);
  });

  it('fail on a patch that brings a Node module into workflow code', () => {
    const find = "import type { KernelLimits } from '../../contract/kernel-api.ts';";
    const edit = { file: 'context/limits.ts', find, replace: `import { readFileSync } from 'node:fs'; ${find}` };
    expect(checkLayering(patchedTree('reads-files', [edit]), rules)).toContainEqual(
      expect.stringMatching(/^workflow code imports node:fs: src\/kernel\/binaries\/[\w-]+\.ts -> .*src\/kernel\/context\/limits\.ts$/),
    );
  });
});
