/**
 * Every broken control's patch keeps applying to the kernel as it is: each edit's text once in
 * its file, in the TypeScript and in the package's compiled JavaScript, and the patched files
 * still parse. That the controls are caught is the catalogue's and broken-controls' business.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { applyEdits, compiledEdit, type SourceEdit } from '../binaries/source-patch.ts';
import { BINARIES, BINARY_IDS } from '../index.ts';
import { patchKernel, readKernelSources, writePatchedCopy } from './patched-kernel.ts';
import { workflowBundle } from './workflow-bundles.ts';

const sources = readKernelSources();
const CONTROLS = BINARY_IDS.filter((id) => BINARIES[id].patch);

/** The package's compiler options (tsconfig.build.json), for one file at a time as tsc emits it. */
const BUILD_OPTIONS = (() => {
  const file = fileURLToPath(new URL('../../../tsconfig.build.json', import.meta.url));
  const parsed = ts.getParsedCommandLineOfConfigFile(file, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error(`${file}: cannot read the compiler options`);
  return { ...parsed.options, module: ts.ModuleKind.ESNext, declaration: false };
})();

function compiled(file: string, text: string): string {
  return ts.transpileModule(text, { compilerOptions: BUILD_OPTIONS, fileName: file }).outputText;
}

/** The kernel as the npm package holds it: each file compiled, under its `.js` name. */
const compiledSources = new Map(
  [...sources].filter(([file]) => file.endsWith('.ts')).map(([file, text]) => [file.replace(/\.ts$/, '.js'), compiled(file, text)]),
);

function syntaxErrors(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false);
  const { parseDiagnostics } = source as unknown as { parseDiagnostics: ts.Diagnostic[] };
  return parseDiagnostics.map((d) => `${file}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

function patchedErrors(patched: ReadonlyMap<string, string>, edits: readonly SourceEdit[]): string[] {
  return [...new Set(edits.map((edit) => edit.file))].flatMap((file) => syntaxErrors(file, patched.get(file) ?? ''));
}

describe("the broken controls' patches", () => {
  it('are one line each, free of type syntax', () => {
    expect(CONTROLS.length).toBeGreaterThan(0);
    for (const id of CONTROLS) {
      for (const edit of BINARIES[id].patch ?? []) expect(`${edit.find}${edit.replace}`, id).not.toContain('\n');
    }
  });

  it.each(CONTROLS)('%s applies to the TypeScript kernel, and it still parses', (id) => {
    const edits = BINARIES[id].patch ?? [];
    const patched = applyEdits(id, sources, edits);
    expect(patchedErrors(patched, edits)).toEqual([]);
  });

  it.each(CONTROLS)("%s applies to the package's compiled kernel, and it still parses", (id) => {
    const edits = (BINARIES[id].patch ?? []).map(compiledEdit);
    const patched = applyEdits(id, compiledSources, edits);
    expect(patchedErrors(patched, edits)).toEqual([]);
  });

  it('fails naming the control, the file and the text when the kernel moved the text, or holds it twice', () => {
    const edit = { file: 'workflows/agent-run.ts', find: 'return patched(COMPACTION_PATCH_ID);', replace: 'return true;' };
    const moved = new Map(sources).set(
      edit.file,
      (sources.get(edit.file) ?? '').replace(edit.find, 'return patched(COMPACTION_PATCH_ID) ;'),
    );
    expect(() => applyEdits('ungated', moved, [edit])).toThrow(
      'control ungated: workflows/agent-run.ts holds "return patched(COMPACTION_PATCH_ID);" 0 times, not once',
    );
    const twice = new Map(sources).set(edit.file, `${sources.get(edit.file)}\n${edit.find}`);
    expect(() => applyEdits('ungated', twice, [edit])).toThrow(/holds "return patched\(COMPACTION_PATCH_ID\);" 2 times, not once/);
    expect(() => applyEdits('ungated', sources, [{ ...edit, file: 'workflows/gone.ts' }])).toThrow(
      'control ungated: workflows/gone.ts is not a file of the kernel',
    );
  });

  it('names .js files and imports in the compiled package', () => {
    const edit = { file: 'workflows/agent-run.ts', find: "from '../context/limits.ts';", replace: "from '../context/limits.ts'; // x.ts" };
    expect(compiledEdit(edit)).toEqual({
      file: 'workflows/agent-run.js',
      find: 'from "../context/limits.js";',
      replace: 'from "../context/limits.js"; // x.ts',
    });
  });
});

describe('a patched kernel', () => {
  it('is hashed by its patched sources: another patch, another hash', () => {
    const ungated = patchKernel('ungated', BINARIES.ungated.patch ?? []);
    expect(patchKernel('ungated', BINARIES.ungated.patch ?? []).hash).toBe(ungated.hash);
    expect(patchKernel('can-while-pending', BINARIES['can-while-pending'].patch ?? []).hash).not.toBe(ungated.hash);
  });

  it('is copied with the edit in place, and the copy removed after', () => {
    const copy = writePatchedCopy(patchKernel('ungated', BINARIES.ungated.patch ?? []));
    const entry = copy.entry('v1');
    const agentRun = ts.sys.readFile(entry.replace(/binaries\/v1\.ts$/, 'workflows/agent-run.ts')) ?? '';
    expect(agentRun).toContain('return true;');
    expect(agentRun).not.toContain('return patched(COMPACTION_PATCH_ID);');
    copy.dispose();
    expect(ts.sys.fileExists(entry)).toBe(false);
  });

  it("bundles: the ungated control's workflow answers the gate without asking it", async () => {
    const gateCalls = (code: string) => code.split('.patched)(').length - 1;
    const ungated = await workflowBundle('ungated');
    const v1 = await workflowBundle('v1');
    // v1 asks `patched` for the compaction gate and for v2's history gate; ungated only for the latter.
    expect(gateCalls(v1.code)).toBe(2);
    expect(gateCalls(ungated.code)).toBe(1);
  }, 120_000);
});
