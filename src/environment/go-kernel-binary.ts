/**
 * The reference foreign kernel (examples/go-kernel, a Go port of the kernel on the Temporal Go
 * SDK): LONGRUN_GO_KERNEL_BIN (a ready go-kernel binary), else the cached build, else a build
 * now with Go, like the embedded server. Built on first use, never at `npm install`.
 */

import { packagePath } from '../shared/package-paths.ts';
import { type GoBinary, type GoProgram, type ResolveOptions, resolveGoProgram } from './go-program.ts';

export class GoKernelBinaryError extends Error {
  override name = 'GoKernelBinaryError';
}

const GO_KERNEL: GoProgram = {
  title: 'the Go kernel',
  name: 'go-kernel',
  sourceDir: packagePath('examples', 'go-kernel'),
  envVar: 'LONGRUN_GO_KERNEL_BIN',
  buildCost: 'about two minutes cold',
  buildCommand: 'cd examples/go-kernel && go build -o go-kernel .',
  alternative: 'or set LONGRUN_GO_KERNEL_BIN to a go-kernel binary',
  errorClass: GoKernelBinaryError,
};

export function resolveGoKernelBinary(options: ResolveOptions = {}): Promise<GoBinary> {
  return resolveGoProgram(GO_KERNEL, options);
}
