export { type BaselineOptions, type BaselineResult, prepareRuns, runBaseline } from './run-baseline.ts';
