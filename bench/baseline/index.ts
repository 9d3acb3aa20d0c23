export { type BaselineOptions, type BaselineResult, pool, runBaseline } from './run-baseline.ts';
