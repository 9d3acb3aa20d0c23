/**
 * The normalized history model the checks read: one small record per event, whatever form the
 * history came in (SDK objects, `fetchHistory()` JSON, `temporal workflow show --output json`).
 * Payload bytes are measured, never kept; what the checks need from the agent-run contract is
 * decoded once, summarized and the decoded value dropped (bounded memory over 100 MB histories).
 */

import type { JournalEvent, JournalHead, KernelLimits, RunCounters } from '../../contract/kernel-api.ts';
import type { KernelMapping } from '../mapping.ts';
import type { ConversationFormat } from './conversation.ts';
import type { ResolvedReference } from './reference-model.ts';

/** One part of a tool or assistant message's content (string content: one text), as an elision sees it (run/placeholders.ts). */
export interface PartSummary {
  /** A screenshot (`image_url` part), a text (a text part, or string content), or a part of another type. */
  kind: 'screenshot' | 'text' | 'other';
  /** UTF-8 bytes of its data URL or text; undefined when not measured. */
  bytes?: number;
  /** The text itself, when it is short enough to be a placeholder (PLACEHOLDER_MAX_BYTES). */
  text?: string;
}

/** One message of a model request, summarized; equal messages share one summary (interned by hash). */
export interface MessageSummary {
  role: string;
  /** UTF-8 bytes of the message serialized as JSON (as it travels). */
  bytes: number;
  /** sha256 of the message's canonical JSON: equal messages, whatever their key order. */
  hash: string;
  /** Ids of an assistant message's tool calls. */
  toolCallIds?: string[];
  /** The tool each of an assistant message's calls names (`function.name`), beside `toolCallIds`. */
  toolCallNames?: string[];
  /** The call a tool message answers. */
  toolCallId?: string;
  /** A tool message's screenshots (its `image_url` parts; 0 for text content). */
  screenshots?: number;
  /** Text of a system or user message whose content is a string (prompts and cards). */
  text?: string;
  /** The parts of a tool message's content, or of an assistant message's string content. */
  parts?: PartSummary[];
  /**
   * A tool message's bytes with its output elided: each text or screenshot a placeholder of
   * ELIDED_ITEM_BYTES (history/messages.ts). The least a payload guard could leave of it.
   */
  elidedBytes?: number;
}

/** A model request (`call_model` input), summarized. */
export interface RequestSummary {
  /** The form its conversation came in (history/conversation.ts): Chat messages, or Responses API items. */
  format: ConversationFormat;
  /** UTF-8 bytes of the request serialized as JSON: the size the trigger and the budget judge. */
  bytes: number;
  /** UTF-8 bytes of its conversation alone (`messages`; a Responses request's `input` and instructions). */
  messagesBytes: number;
  messages: MessageSummary[];
}

/** RunInput of an execution (its start, or the ContinueAsNew that ends it), summarized. */
export interface RunInputSummary {
  runId: string;
  systemPrompt: string;
  userRequest: string;
  maxTurns: number;
  limits: Partial<KernelLimits>;
  /** Hash of everything but `resume`: what must not change across executions. */
  fixedHash: string;
  /** Why the input is not one every kernel must take (history/run-input-problem.ts); null when it is. */
  problem: string | null;
  resume?: {
    messages: MessageSummary[];
    counters: RunCounters;
    journal: JournalHead;
  };
}

/** A value the checks could not read from the history, and why. */
export interface Unreadable {
  unreadable: string;
}

export interface JournalEntry {
  event: JournalEvent;
  /** journalHash(event), computed from the history. */
  hash: string;
}

export type ActivityInput =
  | { kind: 'call-model'; turn?: number; request: RequestSummary }
  | {
      kind: 'compact-context';
      turn?: number;
      /** The dialog as sent to compaction, when the mapping says where it lives. */
      messages?: MessageSummary[];
      /**
       * Identifiers (../identifiers.ts) of the most recent tool messages sent to compaction, most
       * recent first, at most RECENT_TOOL_OUTPUTS_KEPT of them.
       */
      recentToolIdentifiers: string[][];
    }
  | { kind: 'run-tool'; turn?: number; toolCallId?: string }
  | { kind: 'journal-append'; entries: JournalEntry[] }
  | { kind: 'other' }
  | ({ kind: 'unreadable' } & Unreadable);

export type ActivityResult =
  | {
      kind: 'call-model';
      answer: MessageSummary;
      /** The answer's token usage, where the mapping finds it. */
      usage?: unknown;
    }
  | { kind: 'compact-context'; card: string }
  | { kind: 'run-tool'; message: MessageSummary }
  | { kind: 'journal-append'; hashes?: string[] }
  | { kind: 'other' }
  | ({ kind: 'unreadable' } & Unreadable);

export interface FailureSummary {
  /** Messages along the cause chain, outermost first, joined with " <- " (capped). */
  text: string;
  /** Application failure types along the chain (e.g. "PayloadsTooLarge"). */
  types: string[];
  /** Activity types named by activity failure infos along the chain. */
  activityTypes: string[];
  /** The decoded details of the outermost application failure that has any (json/plain payloads only). */
  details?: unknown[];
}

export type ActivityOutcome = 'completed' | 'failed' | 'timed-out' | 'canceled';
export type WorkflowOutcome = 'completed' | 'failed' | 'timed-out' | 'canceled' | 'terminated';

export type EventAttributes =
  | {
      kind: 'workflow-started';
      workflowType: string;
      /** The kernel's RunInput; unreadable for another workflow (the mechanism's invariants do not apply then). */
      input: RunInputSummary | Unreadable;
      /** The workflow id, when the server recorded it (servers from 1.21). */
      workflowId?: string;
      /** The task queue the run was started on (which worker, and so which binary, ran it). */
      taskQueue?: string;
      /** This execution's run id, as the server recorded it at start. */
      runId?: string;
      /** The first run of its chain (shared by every execution a ContinueAsNew, retry or cron started). */
      firstRunId?: string;
      continuedFromRunId?: string;
      /** Set when a retry or a cron schedule started it: it begins a run of its own, though it names the one before. */
      startedBy?: 'retry' | 'cron';
      /** The run's timeout in ms (the execution timeout when the run's own is unset); 0 is none. */
      runTimeoutMs?: number;
    }
  | {
      kind: 'workflow-task';
      phase: 'scheduled' | 'started' | 'completed' | 'timed-out';
      attempt?: number;
      /** Started: the server suggests ContinueAsNew (its `limit.history*.suggestContinueAsNew`). */
      suggestContinueAsNew?: boolean;
      /** Started: the history's size as the server counts it against its limit (0 from servers before 1.20). */
      historySizeBytes?: number;
      /** Started: the run is pinned and its deployment's current version is another (Worker Versioning). */
      targetVersionChanged?: boolean;
      /** Completed by a worker with a deployment version (Worker Versioning): which, and the run's behavior. */
      deployment?: DeploymentStamp;
    }
  | { kind: 'workflow-task-failed'; cause: string; failure?: FailureSummary }
  | {
      kind: 'activity-scheduled';
      activityType: string;
      activityId: string;
      input: ActivityInput;
      /** The retry policy's maximum attempts; 0 (Temporal's default) is unbounded. */
      maximumAttempts: number;
      /** The schedule-to-close timeout in ms; 0 is none. */
      scheduleToCloseMs: number;
    }
  | {
      kind: 'activity-started';
      scheduledEventId: number;
      attempt?: number;
      /** The failure of the attempt before (the server writes the last attempt's start only, with it). */
      lastFailure?: FailureSummary;
    }
  | { kind: 'activity-cancel-requested'; scheduledEventId: number }
  | {
      kind: 'activity-closed';
      scheduledEventId: number;
      outcome: ActivityOutcome;
      result?: ActivityResult;
      failure?: FailureSummary;
    }
  | { kind: 'timer-started'; timerId: string }
  | { kind: 'timer-closed'; startedEventId: number }
  | { kind: 'child-initiated'; workflowType: string }
  | { kind: 'child-closed'; initiatedEventId: number }
  | { kind: 'external-initiated' }
  | { kind: 'external-closed'; initiatedEventId: number }
  /** `version`: what a Go `Version` marker recorded (GetVersion's answer). */
  | { kind: 'marker'; name: string; patchId?: string; version?: number }
  | { kind: 'continued-as-new'; newRunId?: string; input: RunInputSummary | Unreadable }
  | {
      kind: 'workflow-closed';
      outcome: WorkflowOutcome;
      reason?: string;
      identity?: string;
      failure?: FailureSummary;
      /** A completed workflow's result, as JSON decoded (the kernel's RunResult); absent when it carries none readable. */
      result?: unknown;
    }
  | { kind: 'other' };

/** The Worker Deployment version a WorkflowTaskCompleted records, and the run's versioning behavior then. */
export interface DeploymentStamp {
  /** `deployment:buildId`, as visibility's TemporalWorkerDeploymentVersion spells it. */
  version: string;
  buildId: string;
  behavior: 'pinned' | 'auto-upgrade' | 'unspecified';
}

/** The size of one payload-carrying field of an event (`input`, `result`, `details.patch-data`...). */
export interface PayloadField {
  field: string;
  /** Serialized protobuf size of the field (Payloads or Payload): what the server's blob limit judges. */
  bytes: number;
}

export interface HistoryEvent {
  id: number;
  /** Short PascalCase event type, e.g. "ActivityTaskScheduled". */
  type: string;
  time?: string;
  payloads: PayloadField[];
  attrs: EventAttributes;
}

/**
 * An event the checks read no further than its id: one marked `workerMayIgnore` (skipped, as a
 * worker skips it), or one of a type they do not know (a newer server's; the rest is judged).
 * It stays in `events` as `other`, so that ids and the history's length stay the server's.
 */
export interface UninterpretedEvent {
  id: number;
  /** Its type as the history names it ("Unknown", "EVENT_TYPE_…", "EventType 60"), or PascalCase when known. */
  type: string;
  workerMayIgnore: boolean;
}

/** One execution's history, normalized. */
export interface LoadedHistory {
  /** Where it came from (a file path, or a label given by the caller). */
  source: string;
  mapping: KernelMapping;
  events: HistoryEvent[];
  /** Events not interpreted, oldest first; absent when every event was. */
  uninterpreted?: UninterpretedEvent[];
  /** The External Storage references of its payloads, oldest first, as the loading resolved them; absent when it has none. */
  references?: ResolvedReference[];
}
