/**
 * Temporary folders a longrun process owns, named by its pid: `longrun-server-4242-AbC123`. A
 * process killed outright (SIGKILL, the OOM killer) cannot remove its own; the next longrun that
 * makes one of the same kind removes those whose process is gone. A folder of a process still
 * alive (another longrun at work) is left alone.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new folder `<prefix><pid>-XXXXXX` in the system's temp folder, after sweeping the prefix's orphans. */
export function ownedTempDir(prefix: string, root = tmpdir()): string {
  sweepOrphans(prefix, root);
  return mkdtempSync(join(root, `${prefix}${process.pid}-`));
}

/** Removes the prefix's folders whose owning process is gone; returns their names. */
export function sweepOrphans(prefix: string, root = tmpdir()): string[] {
  const swept: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return swept;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true });
      swept.push(name);
    } catch {
      // Another sweeper got there first, or it is not ours to remove: either way, not this one's job.
    }
  }
  return swept;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
