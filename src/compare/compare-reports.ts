/**
 * Two reports' figures side by side, each judged against its threshold: a figure regresses when
 * it got worse than the baseline by more than the threshold allows (a percentage of the
 * baseline's value, or an amount in its unit). A figure one report lacks is shown, not judged.
 */

import { COMPARE_FIGURES, COMPARE_KEYS, type CompareKey } from '../scenario/compare-schema.ts';
import type { Figure } from './figure.ts';
import { type ComparedReport, ReportInputError } from './read-report.ts';
import { type LimitSource, type Thresholds, thresholdText } from './thresholds.ts';

export type FigureStatus = 'regressed' | 'within' | 'not-judged' | 'missing';

export interface ComparedFigure {
  id: string;
  key: CompareKey;
  label: string;
  unit: string;
  better: 'higher' | 'lower';
  base: number | undefined;
  new: number | undefined;
  /** new - base. */
  change: number | undefined;
  /** The change as a percentage of the baseline (undefined when the baseline is 0). */
  changePercent: number | undefined;
  /** How far it may get worse, as written: 10%, 50 MiB/h, 0, off. */
  maxRegression: string;
  /** Where that limit was set: its default, the scenario's `compare.maxRegression`, or `--max-regression`. */
  maxRegressionFrom: LimitSource;
  status: FigureStatus;
}

export interface Comparison {
  base: ReportFacts;
  new: ReportFacts;
  figures: ComparedFigure[];
  /** Labels of the figures that regressed past their threshold. */
  regressed: string[];
  /** What makes the two less alike than they should be (seeds, a partial report). */
  notes: string[];
}

export type ReportFacts = Omit<ComparedReport, 'figures'>;

/** Throws ReportInputError when the two are not reports of the same thing. */
export function compareReports(
  base: ComparedReport,
  next: ComparedReport,
  thresholds: Thresholds,
  from: Partial<Record<CompareKey, LimitSource>> = {},
): Comparison {
  if (base.kind !== next.kind) {
    throw new ReportInputError(`${next.file} is a ${kindName(next)} and ${base.file} a ${kindName(base)}: compare like with like`);
  }
  if (base.scenario !== next.scenario) {
    throw new ReportInputError(
      `${next.file}: scenario ${next.scenario}, not ${base.scenario} as ${base.file}: compare runs of one scenario`,
    );
  }
  const figures = pair(base.figures, next.figures).map(([b, n]) => judge(b, n, thresholds, from));
  const notes: string[] = [];
  if (base.seed !== next.seed) notes.push(`the seeds differ (${base.seed} and ${next.seed}): the runs are not the same plans`);
  for (const [name, report] of [
    ['base', base],
    ['new', next],
  ] as const) {
    if (report.partial) notes.push(`${name} is partial (interrupted): its figures cover less`);
  }
  const { figures: _b, ...baseFacts } = base;
  const { figures: _n, ...newFacts } = next;
  return { base: baseFacts, new: newFacts, figures, regressed: figures.filter((f) => f.status === 'regressed').map((f) => f.label), notes };
}

function kindName(report: ComparedReport): string {
  return report.kind === 'bench' ? 'bench report' : 'summary';
}

/** Every figure of either, by id, in the order of the keys (then as the reports list them). */
function pair(base: Figure[], next: Figure[]): [Figure | undefined, Figure | undefined][] {
  const ids = [...new Set([...base, ...next].map((f) => f.id))];
  const find = (figures: Figure[], id: string) => figures.find((f) => f.id === id);
  const pairs = ids.map((id) => [find(base, id), find(next, id)] as [Figure | undefined, Figure | undefined]);
  const rank = (p: [Figure | undefined, Figure | undefined]) => COMPARE_KEYS.indexOf(((p[0] ?? p[1]) as Figure).key);
  return pairs.sort((a, b) => rank(a) - rank(b));
}

function judge(
  b: Figure | undefined,
  n: Figure | undefined,
  thresholds: Thresholds,
  from: Partial<Record<CompareKey, LimitSource>>,
): ComparedFigure {
  const { id, key, label } = (b ?? n) as Figure;
  const { unit, better } = COMPARE_FIGURES[key];
  const threshold = thresholds[key];
  const base = b?.value;
  const next = n?.value;
  const change = base !== undefined && next !== undefined ? next - base : undefined;
  const changePercent = change !== undefined && base !== 0 && base !== undefined ? (change / Math.abs(base)) * 100 : undefined;
  let status: FigureStatus;
  if (base === undefined || next === undefined || change === undefined) status = 'missing';
  else if (threshold === 'off') status = 'not-judged';
  else {
    const worse = better === 'higher' ? -change : change;
    const allowed = 'percent' in threshold ? (Math.abs(base) * threshold.percent) / 100 : threshold.amount;
    // Float noise (0.1 + 0.2) never regresses a figure that moved by exactly its limit.
    status = worse > allowed + 1e-9 * Math.max(1, Math.abs(base)) ? 'regressed' : 'within';
  }
  const maxRegression = thresholdText(key, threshold);
  return {
    id,
    key,
    label,
    unit,
    better,
    base,
    new: next,
    change,
    changePercent,
    maxRegression,
    maxRegressionFrom: from[key] ?? 'default',
    status,
  };
}
