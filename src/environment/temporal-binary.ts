/**
 * The Temporal server binary that the embedded environment runs: LONGRUN_TEMPORAL_BIN (any
 * existing `temporal`-compatible binary), else the cached build of tools/temporal-server, else a
 * build now with Go.
 */

import { packagePath } from '../shared/package-paths.ts';
import { type GoBinary, type GoProgram, type ResolveOptions, resolveGoProgram } from './go-program.ts';

export class TemporalBinaryError extends Error {
  override name = 'TemporalBinaryError';
}

export type TemporalBinary = GoBinary;

const TEMPORAL_SERVER: GoProgram = {
  title: 'the embedded Temporal server',
  name: 'temporal-server',
  sourceDir: packagePath('tools', 'temporal-server'),
  envVar: 'LONGRUN_TEMPORAL_BIN',
  buildCost: 'cold, about 5-10 minutes on 2 cores; progress every 15 s',
  buildCommand: 'npm run build:server',
  alternative: 'or set LONGRUN_TEMPORAL_BIN to a temporal CLI binary',
  errorClass: TemporalBinaryError,
};

export function resolveTemporalBinary(options: ResolveOptions = {}): Promise<TemporalBinary> {
  return resolveGoProgram(TEMPORAL_SERVER, options);
}
