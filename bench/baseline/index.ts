export { type BaselineOptions, type BaselineResult, runBaseline } from './run-baseline.ts';
