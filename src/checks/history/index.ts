export { HistoryLoadError } from './errors.ts';
export { type HistoryInput, historyLoader, type LoadOptions, loadHistory, loadHistoryFile } from './load.ts';
export type * from './model.ts';
export { RECENT_TOOL_OUTPUTS_KEPT } from './summarize.ts';
