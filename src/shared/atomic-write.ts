/** Files that appear whole or not at all: written beside their target, flushed, then renamed over it. */
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

let sequence = 0;

/** Flushes a directory entry (the rename) to disk; Windows cannot open directories, so it is skipped there. */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes `content` to `path` atomically: a reader sees the old file or the whole new one, never
 * half of it. The temporary file lives in the same folder (a rename does not cross file systems).
 */
export async function atomicWriteFile(path: string, content: string | Uint8Array): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${++sequence}.tmp`);
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}
