/**
 * The contract between a kernel (the agent-run workflow under test) and the harness: the
 * workflow's input, the activity types it schedules and the journal it writes. The checks read
 * histories through these names only, so another implementation (the Go production kernel)
 * that keeps them, or maps them (see the checks' mapping), is judged the same way.
 * Workflow-safe: types and constants only.
 */
import type { ChatRequest, CompactionItem, Message, ToolCall, ToolResult, Usage } from './messages.ts';

/** The workflow type every binary registers; binaries differ in code, not in name. */
export const WORKFLOW_TYPE = 'agentRun';

/** Activity types, named as the production kernel names them. */
export const ACTIVITY = {
  callModel: 'call_model',
  compactContext: 'kernel.compact_context',
  runTool: 'run_tool',
  journalAppend: 'journal.append',
} as const;

/** Thresholds a run may scale down (tests reproduce incidents in seconds); defaults in limits.ts. */
export interface KernelLimits {
  blobLimitBytes: number;
  compactionTriggerBytes: number;
  continueAsNewBytes: number;
  cardMaxBytes: number;
  tailMaxBytes: number;
}

/** Harness settings of a run: which model plays which role. */
export interface RunSettings {
  agent: { model: string };
  /** `harness.compaction.model`; falls back to the judge model, then the env model. */
  compaction?: { model?: string };
  judge?: { model?: string };
}

/**
 * The settings of every run longrun starts: the mocks answer the agent model as the plan says
 * and the compaction model with a card, and a compaction request must name the compaction model.
 */
export const LONGRUN_SETTINGS = {
  agent: { model: 'longrun-agent' },
  compaction: { model: 'longrun-compactor' },
} as const satisfies RunSettings;

export interface RunCounters {
  /** Turns completed over the whole run, across executions. */
  turns: number;
  /** Request bytes sent to call_model over the whole run. */
  totalRequestBytes: number;
  compactions: number;
  compactionFailures: number;
  /** Executions of this run so far (1 for the first). */
  executions: number;
}

/** What a ContinueAsNew carries into the fresh execution. */
export interface Resume {
  messages: Message[];
  counters: RunCounters;
  journal: JournalHead;
}

export interface RunInput {
  /** longrun's run id: the same across ContinueAsNew (unlike Temporal's run id). */
  runId: string;
  systemPrompt: string;
  userRequest: string;
  settings: RunSettings;
  maxTurns: number;
  limits?: Partial<KernelLimits>;
  resume?: Resume;
}

export interface RunResult {
  runId: string;
  counters: RunCounters;
  finalAnswer: string | null;
  /** Why the run ended: the model said it was done, or the turn cap was reached. */
  ended: 'done' | 'max-turns';
}

export interface CallModelInput {
  runId: string;
  turn: number;
  request: ChatRequest;
}
export interface CallModelResult {
  message: Extract<Message, { role: 'assistant' }>;
  usage: Usage;
  /** The provider compacted the conversation (a request with `context_management`): the item that now stands for it. */
  compaction?: CompactionItem;
}

export interface CompactContextInput {
  runId: string;
  turn: number;
  messages: Message[];
  settings: RunSettings;
  cardMaxBytes: number;
}
export interface CompactContextResult {
  card: string;
  model: string;
}

export interface RunToolInput {
  runId: string;
  turn: number;
  call: ToolCall;
}
export type RunToolResult = ToolResult;

/** Journal event types; `context.*` are the spec's names. */
export const JOURNAL_TYPES = [
  'run.started',
  'turn.completed',
  'context.compacted',
  'context.compaction_failed',
  'payload.elided',
  'run.continued_as_new',
  'run.completed',
] as const;
export type JournalType = (typeof JOURNAL_TYPES)[number];

/**
 * One journal event. `prevHash` is the hash of the event before it in the run (across
 * executions), GENESIS_HASH for the first. An event's hash is sha256 over its canonical JSON
 * (see journal-hash.ts), so a chain can be verified from the history alone.
 */
export interface JournalEvent {
  runId: string;
  seq: number;
  type: JournalType;
  turn: number;
  data: Record<string, unknown>;
  prevHash: string;
}

export interface JournalHead {
  /** seq of the next event. */
  nextSeq: number;
  /** Hash of the last event written. */
  headHash: string;
}

export const GENESIS_HASH = '0'.repeat(64);

export interface JournalAppendInput {
  events: JournalEvent[];
}
export interface JournalAppendResult {
  /** The hash of each event, in order. */
  hashes: string[];
}

/** Data of the `context.compacted` event. */
export interface CompactedData {
  turn: number;
  bytes_before: number;
  bytes_after: number;
  card: string;
  kept: number;
  dropped: number;
}
/** Data of the `context.compaction_failed` event. */
export interface CompactionFailedData {
  turn: number;
  reason: string;
}
