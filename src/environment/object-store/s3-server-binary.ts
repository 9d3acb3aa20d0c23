/**
 * The S3 server that external storage writes to: LONGRUN_S3_SERVER_BIN (any build of
 * tools/s3-server, or a program that takes `--host`/`--port` and prints `ready <host:port>`),
 * else the cached build of tools/s3-server, else a build now with Go.
 */
import { packagePath } from '../../shared/package-paths.ts';
import { type GoBinary, type GoProgram, type ResolveOptions, resolveGoProgram } from '../go-program.ts';

/** A missing or broken binary, a failed build, a server that would not start or died. */
export class ObjectStoreError extends Error {
  override name = 'ObjectStoreError';
}

export const S3_SERVER_ENV = 'LONGRUN_S3_SERVER_BIN';

const S3_SERVER: GoProgram = {
  title: 'the S3 server',
  name: 's3-server',
  sourceDir: packagePath('tools', 's3-server'),
  envVar: S3_SERVER_ENV,
  buildCost: 'about half a minute cold',
  buildCommand: 'node --import tsx tools/s3-server/build.ts',
  alternative: `or set ${S3_SERVER_ENV} to an s3-server binary`,
  errorClass: ObjectStoreError,
};

export function resolveS3ServerBinary(options: ResolveOptions = {}): Promise<GoBinary> {
  return resolveGoProgram(S3_SERVER, options);
}
