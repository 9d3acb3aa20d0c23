export * from './agent-run.ts';
export * from './history-builder.ts';
export { resultOf } from './results.ts';
