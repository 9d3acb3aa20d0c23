export { HistoryLoadError } from './errors.ts';
export {
  eventReferences,
  isReferencePayload,
  listReferences,
  listReferencesInFile,
  type PayloadReference,
  REFERENCE_ENCODING,
  REFERENCE_MESSAGE_TYPE,
  type ResolvedReference,
  readReference,
  referenceKey,
  type StorageReference,
  type StoredPayload,
  type StoredPayloads,
} from './external-storage.ts';
export { type HistoryInput, historyLoader, type LoadOptions, loadHistory, loadHistoryFile } from './load.ts';
export type * from './model.ts';
export { RECENT_TOOL_OUTPUTS_KEPT } from './summarize.ts';
