/** longrun's cache on disk: built servers and unpacked browsers, shared by every project on the machine. */
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The cache folder for one kind of artifact: under `LONGRUN_CACHE_DIR`, else `~/.cache/longrun`. */
export function cacheDir(name: string): string {
  const base = process.env.LONGRUN_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'longrun');
  return join(base, name);
}

export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
