/**
 * The activities' signatures, keyed by their activity type (src/contract/kernel-api.ts). Types
 * only, so that workflow code can name them without pulling activity code into its bundle.
 */
import type {
  ACTIVITY,
  CallModelInput,
  CallModelResult,
  CompactContextInput,
  CompactContextResult,
  JournalAppendInput,
  JournalAppendResult,
  RunToolInput,
  RunToolResult,
} from '../../contract/kernel-api.ts';

export type KernelActivities = {
  [ACTIVITY.callModel]: (input: CallModelInput) => Promise<CallModelResult>;
  [ACTIVITY.compactContext]: (input: CompactContextInput) => Promise<CompactContextResult>;
  [ACTIVITY.runTool]: (input: RunToolInput) => Promise<RunToolResult>;
  [ACTIVITY.journalAppend]: (input: JournalAppendInput) => Promise<JournalAppendResult>;
};
