/**
 * The history files `check` and `forecast` read: the files given, and every folder's .json and
 * .json.gz files, its subfolders too (a longrun report keeps a run's executions in
 * `histories/<workflow id>/execution-N.json`). Each folder's files are grouped into runs apart
 * from any other's, as the files given are among themselves. What is named like a history but
 * is not a regular file (a FIFO) is passed on all the same: the loader names it in one line.
 */
import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../usage-error.ts';

const isHistoryFile = (name: string) => name.endsWith('.json') || name.endsWith('.json.gz');
const byNumber = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** A longrun report's own files, beside its histories: not histories. */
function isReportFile(entries: readonly Dirent[], name: string): boolean {
  return name === 'summary.json' && entries.some((entry) => entry.name === 'junit.xml');
}

/** The folder's history files, then each subfolder's (hidden ones left out), each folder a group of its own. */
function folderGroups(folder: string): string[][] {
  const entries = readdirSync(folder, { withFileTypes: true });
  const own = entries
    // Not only regular files: a FIFO or a link named like a history is named by the loader, not passed over.
    .filter((entry) => !entry.isDirectory() && isHistoryFile(entry.name) && !isReportFile(entries, entry.name))
    .map((entry) => entry.name)
    .sort(byNumber)
    .map((name) => join(folder, name));
  const below = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort(byNumber)
    .flatMap((name) => folderGroups(join(folder, name)));
  return own.length > 0 ? [own, ...below] : below;
}

/** The files given (one group) and each folder's, recursively; a folder that holds none is a usage error. */
export function historyFileGroups(paths: readonly string[]): string[][] {
  const given: string[] = [];
  const folders: string[][] = [];
  for (const path of paths) {
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      throw new UsageError(`${path}: no such file or folder`);
    }
    if (!isFolder) {
      given.push(path);
      continue;
    }
    const groups = folderGroups(path);
    if (groups.length === 0) throw new UsageError(`${path}: no .json or .json.gz history in this folder or below it`);
    folders.push(...groups);
  }
  return given.length > 0 ? [given, ...folders] : folders;
}
