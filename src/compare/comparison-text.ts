/** A comparison as the terminal shows it: who is compared, a row per figure, and the verdict last. */
import { formatCount } from '../report/format.ts';
import type { ComparedFigure, Comparison } from './compare-reports.ts';

const HEADERS = ['figure', 'base', 'new', 'change', 'may worsen by', 'set by', ''];

/** Where the limits came from besides the defaults: the scenario file read, `--max-regression` given. */
export interface LimitSources {
  scenarioFile?: string | undefined;
  flag?: boolean;
}

export function comparisonText(comparison: Comparison, sources: LimitSources = {}): string {
  const { base, new: next } = comparison;
  const title = base.kind === 'bench' ? 'bench' : (base.scenario ?? '');
  const pad = ' '.repeat(title.length + 2);
  const lines = [`${title}: base ${base.file} (${base.about})`, `${pad}new  ${next.file} (${next.about})`];
  const over = [...(sources.scenarioFile ? [`scenario ${sources.scenarioFile}`] : []), ...(sources.flag ? ['--max-regression'] : [])];
  if (over.length > 0) lines.push(`${pad}limits: ${over.join(', then ')}, over the defaults`);
  lines.push('');
  const shown = comparison.figures.filter((f) => !(f.key === 'invariant-fails' && f.base === 0 && f.new === 0));
  const quiet = comparison.figures.length - shown.length;
  const rows = shown.map(row);
  // The invariants no run of either failed, in one row rather than one each.
  if (quiet > 0) {
    const at = shown.findIndex((f) => f.key === 'invariant-fails' || f.key === 'request-bytes-per-turn');
    const which = shown.some((f) => f.key === 'invariant-fails') ? `the other ${quiet}` : `each of ${quiet}`;
    rows.splice(at < 0 ? rows.length : at, 0, [`fails: ${which} invariants`, '0', '0', '', '', '', '']);
  }
  lines.push(...table([HEADERS, ...rows]), '');
  for (const note of comparison.notes) lines.push(`note: ${note}`);
  lines.push(verdictLine(comparison));
  return lines.join('\n');
}

export function verdictLine(comparison: Comparison): string {
  const regressed = comparison.figures.filter((f) => f.status === 'regressed');
  if (regressed.length === 0) {
    const judged = comparison.figures.filter((f) => f.status === 'within').length;
    return `no figure regressed past its threshold (${judged} judged)`;
  }
  return `regressed: ${regressed.map((f) => `${f.label} ${changeText(f)} (may worsen by ${f.maxRegression}${setBy(f)})`).join('; ')}`;
}

function setBy(f: ComparedFigure): string {
  return f.maxRegressionFrom === 'default' ? '' : f.maxRegressionFrom === 'scenario' ? ', the scenario' : ', --max-regression';
}

function row(f: ComparedFigure): string[] {
  const status = { regressed: 'REGRESSED', within: '', 'not-judged': '', missing: 'not in both' }[f.status];
  return [f.label, valueText(f.base), valueText(f.new), changeText(f), f.maxRegression, f.maxRegressionFrom, status];
}

/** Three significant digits, thousands grouped: 0.62, 9.92, 162, 1,048,576. */
export function valueText(value: number | undefined): string {
  if (value === undefined) return 'n/a';
  const abs = Math.abs(value);
  const digits = abs >= 100 || Number.isInteger(value) ? 0 : abs >= 10 ? 1 : 2;
  const fixed = value.toFixed(digits);
  return digits === 0 ? formatCount(Number(fixed)) : fixed.replace(/\.?0+$/, '');
}

function changeText(f: ComparedFigure): string {
  if (f.change === undefined) return '';
  if (f.change === 0) return '0';
  const absolute = `${f.change > 0 ? '+' : ''}${valueText(f.change)}`;
  if (f.changePercent === undefined) return absolute;
  const percent = Math.abs(f.changePercent);
  const shown = percent >= 10 ? formatCount(Math.round(percent)) : percent.toFixed(1);
  return `${absolute} (${shown === '0.0' ? '' : f.changePercent > 0 ? '+' : '-'}${shown}%)`;
}

function table(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  // Text left, numbers right.
  return rows.map((r) =>
    r
      .map((cell, i) => (i === 0 || i >= 4 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('   ')
      .trimEnd(),
  );
}
