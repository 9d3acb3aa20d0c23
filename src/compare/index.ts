/**
 * `longrun compare`: two reports (summary.json or bench reports) read into figures, set side by
 * side and judged against how far each may regress.
 */
export { type ComparedFigure, type Comparison, compareReports, type FigureStatus, type ReportFacts } from './compare-reports.ts';
export { comparisonText, verdictLine } from './comparison-text.ts';
export type { Figure } from './figure.ts';
export { COMPARE_FIGURES, COMPARE_KEYS, type CompareKey, type Threshold } from './figure-keys.ts';
export { type ComparedReport, ReportInputError, readReport } from './read-report.ts';
export { defaultThresholds, parseThresholdList, type Thresholds, thresholdText } from './thresholds.ts';
