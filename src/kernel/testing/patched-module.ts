/**
 * A module of a broken control's patched kernel, loaded in the test's process: a unit test of the
 * context logic shows what the control's patch breaks beside what the spec's code does.
 */
import { BINARIES, type BinaryId } from '../index.ts';
import { patchKernel, writePatchedCopy } from '../workers/patched-kernel.ts';

export async function importPatched<T>(control: BinaryId, file: string): Promise<T> {
  const copy = writePatchedCopy(patchKernel(control, BINARIES[control].patch ?? []));
  try {
    return (await import(copy.file(file))) as T;
  } finally {
    copy.dispose();
  }
}
