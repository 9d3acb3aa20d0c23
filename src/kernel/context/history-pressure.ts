/**
 * Whether an execution's history calls for ContinueAsNew (v2): the server suggests it (its
 * `limit.historyCount.suggestContinueAsNew` and `limit.historySize.suggestContinueAsNew`, in the
 * workflow task's started event), or the history has passed the kernel's own bounds, for a
 * server that suggests too late or never. The byte budget alone misses a run of many small
 * events: twenty tool calls a turn add sixty events and few bytes.
 */
import { CONTINUE_AS_NEW_HISTORY_BYTES, CONTINUE_AS_NEW_HISTORY_EVENTS } from '../../contract/limits.ts';

/** What `workflowInfo()` says of the history up to the current workflow task. */
export interface HistoryInfo {
  continueAsNewSuggested: boolean;
  /** Events, up to the current workflow task's started event. */
  historyLength: number;
  /** Bytes as the server counts them against its history-size limit (0 on servers before 1.20). */
  historySize: number;
}

export function historyCallsForContinueAsNew(info: HistoryInfo): boolean {
  return (
    info.continueAsNewSuggested || info.historyLength >= CONTINUE_AS_NEW_HISTORY_EVENTS || info.historySize >= CONTINUE_AS_NEW_HISTORY_BYTES
  );
}
