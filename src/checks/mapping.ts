/**
 * How to read an agent-run kernel's histories: its workflow and activity type names, where each
 * piece of the contract lives in activity inputs and results, its version gate and its default
 * limits. The default describes our kernel (src/contract); another kernel (the Go production
 * kernel) is judged by the same checks through its own mapping.
 */
import { FAILURE_TYPE, FAILURE_TYPES } from '../contract/failure-types.ts';
import { ACTIVITY, type KernelLimits, WORKFLOW_TYPE } from '../contract/kernel-api.ts';
import {
  BLOB_LIMIT_BYTES,
  CARD_MAX_BYTES,
  COMPACTION_PATCH_ID,
  COMPACTION_TRIGGER_BYTES,
  CONTINUE_AS_NEW_BYTES,
  TAIL_MAX_BYTES,
} from '../contract/limits.ts';

/** A value inside a Payloads list: the argument (or result) index, then property names. */
export interface PayloadPath {
  arg: number;
  path: readonly string[];
}

export interface KernelMapping {
  workflowType: string;
  activities: {
    callModel: string;
    /** null: the workflow has no compaction (an agent framework without it); the compaction invariants are not applicable. */
    compactContext: string | null;
    runTool: string;
    journalAppend: string;
  };
  /** Where each piece of the contract lives. */
  paths: {
    /** RunInput in the workflow's input and in the ContinueAsNew input. */
    runInput: PayloadPath;
    /** The ChatRequest (with `messages`) in the call_model input. */
    callModelRequest: PayloadPath;
    /** The kernel's turn number in the inputs of call_model, compact_context and run_tool. */
    turn: PayloadPath;
    /** The assistant message in the call_model result. */
    callModelAnswer: PayloadPath;
    /** The token usage in the call_model result (what `turn.completed` journals); null when it carries none. */
    callModelUsage: PayloadPath | null;
    /** The dialog sent to compaction; null when the kernel sends only a digest. */
    compactMessages: PayloadPath | null;
    /** The card (a string) in the compact_context result. */
    compactCard: PayloadPath;
    /** The tool call id in the run_tool input. */
    toolCallId: PayloadPath;
    /** The ToolResult (`tool_call_id`, `content`) in the run_tool result. */
    toolResult: PayloadPath;
    /** The journal events (an array, or one event) in the journal.append input. */
    journalEvents: PayloadPath;
    /** The hashes the journal activity returns, when it returns them. */
    journalHashes: PayloadPath | null;
  };
  /** The version gate of compaction (TS `patched`, Go `GetVersion`); null when ungated. */
  patchId: string | null;
  /**
   * The marker that records the gate: `core_patch`, what the TypeScript SDK's `patched(id)`
   * writes, or `Version`, what the Go SDK's `GetVersion(id, ...)` writes (the gate opens at a
   * recorded version of 1 or more; `DefaultVersion`, -1, is the old path).
   */
  gateMarker: GateMarker;
  /** The failure types a run may end with (the reasons the contract names); any other failure is a liveness violation. */
  failureTypes: readonly string[];
  /**
   * The failure type of a run its payload guard ended (no elision brings a payload under the blob
   * limit); null when the kernel has none. `run.liveness` asks such an end for its reason.
   */
  payloadGuardFailureType: string | null;
  /** The failure type of a run the kernel refused at its input; null when it has none. `run.liveness` asks the input. */
  invalidInputFailureType: string | null;
  /** The seq of a run's first journal event. */
  journalFirstSeq: number;
  /** The kernel's default limits; a check context and the run's own input override them. */
  limits: KernelLimits;
}

export type GateMarker = 'core_patch' | 'Version';

const firstArg = (...path: string[]): PayloadPath => ({ arg: 0, path });

/** Our kernel, as src/contract describes it. */
export const DEFAULT_KERNEL_MAPPING: KernelMapping = {
  workflowType: WORKFLOW_TYPE,
  activities: {
    callModel: ACTIVITY.callModel,
    compactContext: ACTIVITY.compactContext,
    runTool: ACTIVITY.runTool,
    journalAppend: ACTIVITY.journalAppend,
  },
  paths: {
    runInput: firstArg(),
    callModelRequest: firstArg('request'),
    turn: firstArg('turn'),
    callModelAnswer: firstArg('message'),
    callModelUsage: firstArg('usage'),
    compactMessages: firstArg('messages'),
    compactCard: firstArg('card'),
    toolCallId: firstArg('call', 'id'),
    toolResult: firstArg(),
    journalEvents: firstArg('events'),
    journalHashes: firstArg('hashes'),
  },
  patchId: COMPACTION_PATCH_ID,
  gateMarker: 'core_patch',
  failureTypes: FAILURE_TYPES,
  payloadGuardFailureType: FAILURE_TYPE.payloadGuard,
  invalidInputFailureType: FAILURE_TYPE.invalidRunInput,
  // Our kernel starts its journal at seq 1 (src/kernel/workflows/agent-run.ts).
  journalFirstSeq: 1,
  limits: {
    blobLimitBytes: BLOB_LIMIT_BYTES,
    compactionTriggerBytes: COMPACTION_TRIGGER_BYTES,
    continueAsNewBytes: CONTINUE_AS_NEW_BYTES,
    cardMaxBytes: CARD_MAX_BYTES,
    tailMaxBytes: TAIL_MAX_BYTES,
  },
};

/** Reads `path` inside a list of decoded arguments; undefined when any step is missing. */
export function pick(args: readonly unknown[], at: PayloadPath): unknown {
  let value: unknown = args[at.arg];
  for (const key of at.path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export function describePath(at: PayloadPath): string {
  return [`[${at.arg}]`, ...at.path].join('.');
}
