/**
 * A broken control is a small change of the kernel's source, applied to a copy of it when the
 * control's workflow bundle is built (as a mutation tool applies a mutant): v1's own source holds
 * only the mechanism. Each edit replaces one exact text that must occur exactly once in its file,
 * so a refactor of the kernel that moves the text fails loudly, naming the control, the file and
 * the text, instead of building a control that no longer breaks anything.
 */

/** One exact replacement in a file of the kernel, named from `src/kernel/` (`workflows/agent-run.ts`). */
export interface SourceEdit {
  file: string;
  /** One line of text, free of type syntax: it must also occur in the compiled package's JavaScript. */
  find: string;
  replace: string;
}

/** The kernel's files, by their path under the kernel's folder. */
export type KernelSources = ReadonlyMap<string, string>;

/**
 * In the compiled package the kernel is JavaScript: `agent-run.ts` is `agent-run.js`, and a
 * relative import names `.js` in double quotes (tsc's rewriteRelativeImportExtensions writes
 * the specifier anew).
 */
export function compiledEdit(edit: SourceEdit): SourceEdit {
  const js = (text: string) => text.replace(/['"](\.{1,2}\/[^'"]*)\.ts['"]/g, '"$1.js"');
  return { file: edit.file.replace(/\.ts$/, '.js'), find: js(edit.find), replace: js(edit.replace) };
}

/** `sources` with `control`'s edits applied; throws when an edit's text does not occur exactly once. */
export function applyEdits(control: string, sources: KernelSources, edits: readonly SourceEdit[]): Map<string, string> {
  const patched = new Map(sources);
  for (const { file, find, replace } of edits) {
    const text = patched.get(file);
    if (text === undefined) throw new Error(`control ${control}: ${file} is not a file of the kernel`);
    const count = text.split(find).length - 1;
    if (count !== 1) {
      throw new Error(`control ${control}: ${file} holds ${JSON.stringify(find)} ${count} times, not once: update the control's patch`);
    }
    patched.set(
      file,
      text.replace(find, () => replace),
    );
  }
  return patched;
}
