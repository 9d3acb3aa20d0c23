/**
 * The Toxiproxy binary that longrun's network faults run through: LONGRUN_TOXIPROXY_BIN (any
 * toxiproxy-server that takes `--host` and `--port`), else the cached build of tools/toxiproxy,
 * else a build now with Go.
 */

import { packagePath } from '../shared/package-paths.ts';
import { type GoBinary, type GoProgram, type ResolveOptions, resolveGoProgram } from './go-program.ts';

export class ToxiproxyBinaryError extends Error {
  override name = 'ToxiproxyBinaryError';
}

const TOXIPROXY: GoProgram = {
  title: 'Toxiproxy',
  name: 'toxiproxy',
  sourceDir: packagePath('tools', 'toxiproxy'),
  envVar: 'LONGRUN_TOXIPROXY_BIN',
  buildCost: 'about a minute',
  buildCommand: 'node --import tsx tools/toxiproxy/build.ts',
  alternative: 'or set LONGRUN_TOXIPROXY_BIN to a toxiproxy-server binary',
  errorClass: ToxiproxyBinaryError,
};

export function resolveToxiproxyBinary(options: ResolveOptions = {}): Promise<GoBinary> {
  return resolveGoProgram(TOXIPROXY, options);
}
