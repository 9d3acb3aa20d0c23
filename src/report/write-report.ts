/** Writes a report folder: saved files, junit.xml, report.html, and summary.json last, all atomically. */
import { mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import type { Summary } from '../result/index.ts';
import { parseSummary } from '../result/index.ts';
import { atomicWriteFile } from '../shared/atomic-write.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { reportDirFor } from './report-dir.ts';

export interface ReportFile {
  /** Relative to the report folder, e.g. one of `RunRecord.historyFiles`. */
  path: string;
  content: string | Uint8Array;
}

export interface WriteReportOptions {
  /** The report folder; default `reportDirFor(summary.scenario, summary.startedAt, root)`. */
  dir?: string;
  /** Where the default folder goes; default `reports`. */
  root?: string;
  /** Histories (or other files) to save in the folder before the summary, e.g. a run's executions at its `historyFiles`. */
  histories?: readonly ReportFile[];
}

function insideFolder(file: ReportFile, index: number): string {
  const path = normalize(file.path);
  if (isAbsolute(path) || path === '..' || path.startsWith(`..${sep}`) || path === '.') {
    throw new Error(`writeReport: histories[${index}].path "${file.path}" must be a file inside the report folder`);
  }
  return path;
}

/**
 * Writes the report of `summary` and returns its folder. The summary is checked first (a bad
 * one throws a one-line error and nothing is written); summary.json comes last, so its
 * presence means the folder is complete.
 */
export async function writeReport(summary: Summary, options: WriteReportOptions = {}): Promise<string> {
  // Checked, but the caller's object is what gets written: nothing it holds is dropped.
  parseSummary(summary);
  const histories = (options.histories ?? []).map((file, index) => ({ path: insideFolder(file, index), content: file.content }));
  const dir = options.dir ?? reportDirFor(summary.scenario, new Date(summary.startedAt), options.root);
  await mkdir(dir, { recursive: true });
  for (const file of histories) {
    const path = join(dir, file.path);
    await mkdir(dirname(path), { recursive: true });
    await atomicWriteFile(path, file.content);
  }
  await atomicWriteFile(join(dir, 'junit.xml'), renderJunit(summary));
  await atomicWriteFile(join(dir, 'report.html'), renderHtml(summary));
  await atomicWriteFile(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  return dir;
}
