/**
 * A report as `longrun compare` reads it: a report folder or its summary.json, or a bench
 * report. Anything else is one line naming the file (the CLI's exit code 2).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatDuration } from '../report/format.ts';
import { parseSummary } from '../result/index.ts';
import { benchFigures, benchReportSchema } from './bench-figures.ts';
import type { Figure } from './figure.ts';
import { summaryFigures } from './summary-figures.ts';

export interface ComparedReport {
  /** The file read (a folder's summary.json). */
  file: string;
  kind: 'summary' | 'bench';
  /** The scenario's name; undefined for a bench report. */
  scenario: string | undefined;
  /** The scenario file the run read, as its summary names it (absent in older summaries and bench reports). */
  scenarioFile?: string | undefined;
  seed: number | undefined;
  /** Interrupted before it finished: its figures cover less. */
  partial: boolean;
  /** When, how long, how much, in one line. */
  about: string;
  figures: Figure[];
}

/** Bad input: a file that is missing, not JSON, or not a report. */
export class ReportInputError extends Error {
  override name = 'ReportInputError';
}

export function readReport(path: string): ComparedReport {
  const file = reportFile(path);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ReportInputError(`${file}: ${error instanceof SyntaxError ? 'not JSON' : 'cannot be read'} (${(error as Error).message})`);
  }
  const fields = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
  if (fields.includes('machine') && fields.includes('commit')) return benchReport(file, value);
  if (fields.includes('scenario') || fields.includes('totals')) return summaryReport(file, value);
  throw new ReportInputError(`${file}: neither a longrun summary.json nor a bench report`);
}

function reportFile(path: string): string {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    throw new ReportInputError(`${path}: no such file or folder`);
  }
  if (!isFolder) return path;
  const file = join(path, 'summary.json');
  try {
    statSync(file);
  } catch {
    throw new ReportInputError(`${path}: a folder with no summary.json (give a report folder, or the file)`);
  }
  return file;
}

function summaryReport(file: string, value: unknown): ComparedReport {
  let summary: ReturnType<typeof parseSummary>;
  try {
    summary = parseSummary(value);
  } catch (error) {
    throw new ReportInputError(`${file}: not a longrun summary.json: ${(error as Error).message}`);
  }
  const about = [
    when(summary.startedAt),
    formatDuration(summary.durationMs),
    `${summary.totals.runs} runs`,
    `seed ${summary.seed}`,
    ...(summary.partial ? ['PARTIAL'] : []),
  ];
  return {
    file,
    kind: 'summary',
    scenario: summary.scenario,
    ...(summary.scenarioFile ? { scenarioFile: summary.scenarioFile } : {}),
    seed: summary.seed,
    partial: summary.partial,
    about: about.join(', '),
    figures: summaryFigures(summary),
  };
}

function benchReport(file: string, value: unknown): ComparedReport {
  const parsed = benchReportSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || 'report'}: ${issue.message}` : 'invalid';
    throw new ReportInputError(`${file}: not a bench report: ${where}`);
  }
  const report = parsed.data;
  const partial = report.month?.partial === true;
  const about = [when(report.startedAt), `commit ${report.commit}`, `${report.machine.cpus} cores`, ...(partial ? ['PARTIAL'] : [])];
  return { file, kind: 'bench', scenario: undefined, seed: undefined, partial, about: about.join(', '), figures: benchFigures(report) };
}

/** 2026-12-03 23:35 UTC */
function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
