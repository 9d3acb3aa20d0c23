export * from './agent-run.ts';
export * from './history-builder.ts';
export { sdkHistoryFromJson } from './sdk-history.ts';
