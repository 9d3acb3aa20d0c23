export * from './agent-run-history.ts';
export * from './history-builder.ts';
export { resultOf } from './results.ts';
