/**
 * `longrun compare`: two reports (summary.json or bench reports) read into figures, set side by
 * side and judged against how far each may regress.
 */

export { COMPARE_FIGURES, COMPARE_KEYS, type CompareKey, type Threshold } from '../scenario/compare-schema.ts';
export { type ComparedFigure, type Comparison, compareReports, type FigureStatus, type ReportFacts } from './compare-reports.ts';
export { comparisonText, verdictLine } from './comparison-text.ts';
export type { Figure } from './figure.ts';
export { type ComparedReport, ReportInputError, readReport } from './read-report.ts';
export { type ScenarioLimits, scenarioLimits } from './scenario-limits.ts';
export {
  defaultThresholds,
  type LimitSource,
  type Limits,
  mergeThresholds,
  parseThresholdList,
  scenarioThresholds,
  type Thresholds,
  thresholdText,
} from './thresholds.ts';
