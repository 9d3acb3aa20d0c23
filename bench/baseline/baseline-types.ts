/** The baseline workflow's input and activities (types only: shared by the sandbox and the worker). */
import type {
  CallModelInput,
  CallModelResult,
  JournalAppendInput,
  JournalAppendResult,
  RunToolInput,
  RunToolResult,
} from '../../src/contract/kernel-api.ts';

export interface BaselineInput {
  runId: string;
  systemPrompt: string;
  userRequest: string;
  model: string;
  maxTurns: number;
}

export interface BaselineActivities {
  call_model(input: CallModelInput): Promise<CallModelResult>;
  run_tool(input: RunToolInput): Promise<RunToolResult>;
  'journal.append'(input: JournalAppendInput): Promise<JournalAppendResult>;
}
