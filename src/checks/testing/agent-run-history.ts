/**
 * Builds the histories of an agent run as our kernel's contract describes it (src/contract):
 * turns of call_model + run_tool, journal events hash-chained through journal.append,
 * compaction with rebuild, ContinueAsNew with resume. A correct run by default; every step takes
 * options to break exactly one rule, so that each invariant can be shown to fail.
 */

import { extractIdentifiers } from '../../contract/identifiers.ts';
import { journalHash } from '../../contract/journal-hash.ts';
import {
  ACTIVITY,
  GENESIS_HASH,
  type JournalEvent,
  type JournalHead,
  type JournalType,
  type KernelLimits,
  type Resume,
  type RunCounters,
  type RunInput,
} from '../../contract/kernel-api.ts';
import { CARD_SECTIONS, COMPACTION_PATCH_ID, TAIL_MAX_GROUPS } from '../../contract/limits.ts';
import type { ChatRequest, ContentPart, Message, ToolCall } from '../../contract/messages.ts';
import { loadHistory } from '../history/load.ts';
import { messageText, sha256 } from '../history/messages.ts';
import type { LoadedHistory } from '../history/model.ts';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { type EventSink, HistoryBuilder, type JsonObject } from './history-builder.ts';

export const CARD_FRAME = 'This is a record of displaced work: the state card of the run so far.';

/** Limits scaled down so that fixtures cross every threshold in a few kilobytes. */
export const SMALL_LIMITS: KernelLimits = {
  blobLimitBytes: 64_000,
  compactionTriggerBytes: 20_000,
  continueAsNewBytes: 150_000,
  cardMaxBytes: 8192,
  tailMaxBytes: 12_000,
};

type AssistantMessage = Extract<Message, { role: 'assistant' }>;
type ToolOutput = number | string | ContentPart[];

export interface AgentRunOptions {
  runId?: string;
  systemPrompt?: string;
  userRequest?: string;
  maxTurns?: number;
  limits?: Partial<KernelLimits>;
  /** Record the compaction gate's patch marker in every execution (default true). */
  gate?: boolean;
  /** Streams the events of execution `n` (1-based) instead of keeping them. */
  sink?: (execution: number) => EventSink;
  /** Journal `run.started` as the kernel does (default true; false to write another opening). */
  journalsStart?: boolean;
}

export interface TurnOptions {
  /** This turn's tool outputs: a byte count makes synthetic text of that size (default [2000]). */
  tools?: ToolOutput[];
  /** Indexes of tools whose run_tool activity fails. */
  failedTools?: number[];
  /** The model's answer has no tool calls: the run is done. */
  final?: boolean;
  /** Replaces the request's messages (to break append-only or rebuild rules). */
  messages?: (dialog: Message[]) => Message[];
  /** Edits the turn.completed record (to break it). */
  record?: (data: Record<string, unknown>) => Record<string, unknown>;
}

export interface CompactOptions {
  /** The card the compaction model returns (default: a valid card for the dialog). */
  card?: string;
  /** Whole turn groups kept verbatim (default: as many as fit the tail max, 2 to 8, as the kernel keeps them). */
  tailGroups?: number;
  /**
   * What happens: accepted (default), the activity fails (HttpUnavailable) or times out, the kernel
   * rejects the card after the activity returned it, the activity rejects it (InvalidCard, the
   * card in its details), or the activity's own code crashes (a TypeError).
   */
  outcome?: 'accepted' | 'failed' | 'timed-out' | 'rejected' | 'invalid-card' | 'crashed';
  /** Replaces the rebuilt dialog (to break the rebuild contract). */
  rebuild?: (rebuilt: Message[], before: Message[]) => Message[];
  /** What the compaction input carries instead of the dialog (a kernel eliding it to fit the blob limit). */
  sent?: (before: Message[]) => Message[];
  /** Write the journal event (default true). */
  journal?: boolean;
  /** Schedule compact_context with no attempt bound and no schedule-to-close (the compaction-retries-forever slip). */
  unbounded?: boolean;
  /** The reason context.compaction_failed gives (default: the failure's `Type: message`, as the kernel journals it). */
  reason?: string;
  /** Edits the context.compacted record (to break it). */
  record?: (data: Record<string, unknown>) => Record<string, unknown>;
}

/** The reason the kernel journals for each way a compaction fails: the innermost failure's `Type: message`. */
const REASONS: Record<NonNullable<CompactOptions['outcome']>, string> = {
  accepted: '',
  failed: 'HttpUnavailable: compaction model unavailable',
  'timed-out': 'activity StartToClose timeout',
  rejected: 'the card is over the limit',
  'invalid-card': 'InvalidCard: card is invalid',
  crashed: "TypeError: Cannot read properties of undefined (reading 'compaction')",
};

export interface ContinueOptions {
  /** Edits what the ContinueAsNew carries (to break carry-over). */
  resume?: (resume: Resume) => Resume;
  /** Runs on the ending execution just before ContinueAsNew (to leave work pending). */
  before?: (history: HistoryBuilder) => void;
  /** Continue while the last journal append is pending, carrying the head before it (can-while-pending). */
  pendingJournal?: boolean;
  /** Edits the run.continued_as_new record (to break it). */
  record?: (data: Record<string, unknown>) => Record<string, unknown>;
}

/** Synthetic tool output of about `bytes` bytes, with a few identifiers a card must keep. */
export function toolOutputText(turn: number, index: number, bytes: number): string {
  const hash = sha256(`${turn}:${index}`).slice(0, 12);
  const head = `$ cat src/turn-${turn}/file-${index}.ts\ncommit ${hash} build-${turn}x${index} status ok\n`;
  const filler = 'lorem ipsum dolor sit amet consectetur adipiscing elit ';
  return (head + filler.repeat(Math.ceil(Math.max(0, bytes - head.length) / filler.length))).slice(0, Math.max(bytes, head.length));
}

/** A card with the six sections that carries the identifiers of the user request and the latest tool output. */
export function validCard(dialog: readonly Message[], extra = ''): string {
  const user = extractIdentifiers(
    dialog
      .filter((m) => m.role === 'user')
      .map(messageText)
      .join('\n'),
  );
  const lastTool = [...dialog].reverse().find((m) => m.role === 'tool');
  const tool = lastTool ? extractIdentifiers(messageText(lastTool)) : [];
  const body: Record<(typeof CARD_SECTIONS)[number], string> = {
    '## Task': `The user asked for work on ${user.join(', ') || 'the task'}.`,
    '## Decisions': 'Keep the module layout; test before each commit.',
    '## Files and artifacts': tool.join('\n') || 'none',
    '## Verified': 'The last build passed.',
    '## Open questions': 'none',
    '## Next step': `Continue from the last tool output.${extra}`,
  };
  return CARD_SECTIONS.map((section) => `${section}\n${body[section]}`).join('\n\n');
}

/** The last `count` whole turn groups (assistant message and its tool results) of a dialog. */
export function lastGroups(dialog: readonly Message[], count: number): Message[] {
  let start = dialog.length;
  for (let found = 0; start > 0 && found < count; ) {
    start--;
    if (dialog[start]?.role === 'assistant') found++;
  }
  return dialog.slice(start);
}

/** The kernel's tail: the last 2 groups whatever their size, then more while the tail stays within the cap, 8 at most. */
function fittingGroups(dialog: readonly Message[], tailMaxBytes: number): number {
  const groups = dialog.filter((message) => message.role === 'assistant').length;
  let count = Math.min(2, groups);
  while (count < Math.min(groups, TAIL_MAX_GROUPS) && Buffer.byteLength(JSON.stringify(lastGroups(dialog, count + 1))) <= tailMaxBytes)
    count++;
  return count;
}

/** Temporal's run id of execution `n` of a run: a UUID derived from both, so every run differs. */
function temporalRunId(runId: string, execution: number): string {
  const hex = sha256(`${runId}/${execution}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export class AgentRunHistory {
  readonly input: RunInput;
  dialog: Message[];
  turnNumber = 0;
  readonly counters: RunCounters = {
    turns: 0,
    totalRequestBytes: 0,
    compactions: 0,
    compactionFailures: 0,
    executions: 1,
  };
  // Our kernel's journal starts at seq 1.
  journalHead: JournalHead = { nextSeq: 1, headHash: GENESIS_HASH };
  readonly executions: HistoryBuilder[] = [];
  readonly limits: KernelLimits;
  /** Request bytes sent in the current execution (what the ContinueAsNew budget counts). */
  executionRequestBytes = 0;

  constructor(private readonly options: AgentRunOptions = {}) {
    this.input = {
      runId: options.runId ?? 'run-0001',
      systemPrompt: options.systemPrompt ?? 'You are a careful coding agent. Use the tools; report what you verified.',
      userRequest: options.userRequest ?? 'Fix the failing build in services/api/main.go for ticket OPS-4821 (commit 9f3c2ab1).',
      settings: { agent: { model: 'agent-model' }, compaction: { model: 'title-model' } },
      maxTurns: options.maxTurns ?? 500,
      ...(options.limits && { limits: options.limits }),
    };
    this.limits = { ...DEFAULT_KERNEL_MAPPING.limits, ...options.limits };
    this.dialog = [
      { role: 'system', content: this.input.systemPrompt },
      { role: 'user', content: this.input.userRequest },
    ];
    this.startExecution(this.input);
    if (options.journalsStart !== false) this.journal('run.started', { max_turns: this.input.maxTurns, limits: { ...this.limits } });
  }

  /** The current execution's history builder (for low-level events). */
  get history(): HistoryBuilder {
    return this.executions.at(-1) as HistoryBuilder;
  }

  private startExecution(input: RunInput): void {
    const number = this.executions.length + 1;
    const runId = (n: number) => temporalRunId(input.runId, n);
    const history = new HistoryBuilder(runId(number), this.options.sink?.(number));
    history.started(input, number > 1 ? { continuedFromRunId: runId(number - 1), firstRunId: runId(1) } : {});
    history.workflowTask();
    if (this.options.gate !== false) history.patchMarker(COMPACTION_PATCH_ID);
    this.executions.push(history);
  }

  /**
   * Appends one journal event through journal.append; `override` breaks the chain on purpose.
   * A pending append is scheduled and never completes; the head stays where it was.
   */
  journal(type: JournalType, data: Record<string, unknown>, override: Partial<JournalEvent> = {}, pending = false): JournalEvent {
    const event: JournalEvent = {
      runId: this.input.runId,
      seq: this.journalHead.nextSeq,
      type,
      turn: this.turnNumber,
      data,
      prevHash: this.journalHead.headHash,
      ...override,
    };
    const hash = journalHash(event);
    if (pending) {
      this.history.activityScheduled(ACTIVITY.journalAppend, { events: [event] });
      return event;
    }
    this.history.activity(ACTIVITY.journalAppend, { events: [event] }, { hashes: [hash] });
    this.journalHead = { nextSeq: event.seq + 1, headHash: hash };
    return event;
  }

  /** The request of the next turn over `messages`. */
  request(messages: Message[] = this.dialog): ChatRequest {
    return {
      model: 'agent-model',
      messages,
      metadata: { longrun_run_id: this.input.runId, longrun_turn: String(this.turnNumber + 1), longrun_purpose: 'agent' },
    };
  }

  turn(options: TurnOptions = {}): this {
    const request = this.request(options.messages ? options.messages(this.dialog) : this.dialog);
    this.turnNumber++;
    const turn = this.turnNumber;
    const outputs = options.final ? [] : (options.tools ?? [2000]);
    const calls: ToolCall[] = outputs.map((output, index) => ({
      id: `call_${turn}_${index}`,
      type: 'function',
      function: {
        name: 'shell',
        arguments: JSON.stringify({ seed: turn * 100 + index, bytes: typeof output === 'number' ? output : 0 }),
      },
    }));
    const answer: AssistantMessage = options.final
      ? { role: 'assistant', content: 'The build is fixed and verified.' }
      : { role: 'assistant', content: null, tool_calls: calls };
    this.history.workflowTask();
    const usage = { prompt_tokens: turn * 10, completion_tokens: 1, total_tokens: turn * 10 + 1 };
    this.history.activity(ACTIVITY.callModel, { runId: this.input.runId, turn, request }, { message: answer, usage });
    const sent = Buffer.byteLength(JSON.stringify(request));
    this.counters.totalRequestBytes += sent;
    this.executionRequestBytes += sent;
    this.dialog = [...request.messages, answer];
    if (calls.length > 0) this.history.workflowTask();
    calls.forEach((call, index) => {
      const output = outputs[index] as ToolOutput;
      const content = typeof output === 'number' ? toolOutputText(turn, index, output) : output;
      const input = { runId: this.input.runId, turn, call };
      if (options.failedTools?.includes(index)) {
        this.history.activityFailed(this.history.activityScheduled(ACTIVITY.runTool, input), 'sandbox unavailable');
        this.dialog.push({ role: 'tool', tool_call_id: call.id, content: 'error: sandbox unavailable' });
        return;
      }
      this.history.activity(ACTIVITY.runTool, input, { tool_call_id: call.id, content });
      this.dialog.push({ role: 'tool', tool_call_id: call.id, content });
    });
    this.history.workflowTask();
    this.counters.turns++;
    const record = { turn, request_bytes: sent, usage, tool_calls: calls.length, execution_request_bytes: this.executionRequestBytes };
    this.journal('turn.completed', options.record ? options.record(record) : record);
    return this;
  }

  turns(count: number, options: TurnOptions = {}): this {
    for (let i = 0; i < count; i++) this.turn(options);
    return this;
  }

  /**
   * Turns as the current kernel plays them: at each boundary, ContinueAsNew once the execution
   * has sent its budget, compaction when the request passes the trigger, then the turn.
   */
  play(count: number, options: TurnOptions = {}): this {
    for (let i = 0; i < count; i++) {
      if (this.executionRequestBytes > this.limits.continueAsNewBytes) this.continueAsNew();
      if (Buffer.byteLength(JSON.stringify(this.request())) > this.limits.compactionTriggerBytes) this.compact();
      this.turn(options);
    }
    return this;
  }

  /** Compaction at the boundary before the next turn. */
  compact(options: CompactOptions = {}): this {
    const turn = this.turnNumber + 1;
    const before = this.dialog;
    const card = options.card ?? validCard(before);
    const outcome = options.outcome ?? 'accepted';
    this.history.workflowTask();
    const input = {
      runId: this.input.runId,
      turn,
      messages: options.sent ? options.sent(before) : before,
      settings: this.input.settings,
      cardMaxBytes: this.limits.cardMaxBytes,
    };
    // Bounded as the kernel bounds it: a compaction retried without bound fails compaction.failure-continues.
    const scheduled = this.history.activityScheduled(ACTIVITY.compactContext, input, options.unbounded ? {} : { maximumAttempts: 3 });
    if (outcome === 'failed') this.history.activityFailed(scheduled, 'compaction model unavailable', 'HttpUnavailable');
    else if (outcome === 'crashed')
      this.history.activityFailed(scheduled, "Cannot read properties of undefined (reading 'compaction')", 'TypeError');
    else if (outcome === 'invalid-card') this.history.activityFailed(scheduled, 'card is invalid', 'InvalidCard', [card]);
    else if (outcome === 'timed-out') this.history.activityTimedOut(scheduled);
    else this.history.activityCompleted(scheduled, { card, model: 'title-model' });
    this.history.workflowTask();
    if (outcome !== 'accepted') {
      this.counters.compactionFailures++;
      if (options.journal !== false)
        this.journal('context.compaction_failed', { turn, reason: options.reason ?? REASONS[outcome] }, { turn });
      return this;
    }
    const rebuilt: Message[] = [
      before[0] as Message,
      before[1] as Message,
      { role: 'system', content: `${CARD_FRAME}\n\n${card}` },
      ...lastGroups(before, options.tailGroups ?? fittingGroups(before, this.limits.tailMaxBytes)),
    ];
    this.dialog = options.rebuild ? options.rebuild(rebuilt, before) : rebuilt;
    this.counters.compactions++;
    if (options.journal !== false) {
      const kept = this.dialog.filter((m) => m.role === 'assistant').length;
      const record = {
        turn,
        bytes_before: Buffer.byteLength(JSON.stringify(this.request(before))),
        bytes_after: Buffer.byteLength(JSON.stringify(this.request())),
        card,
        kept,
        dropped: before.filter((m) => m.role === 'assistant').length - kept,
      };
      this.journal('context.compacted', options.record ? options.record(record) : record, { turn });
    }
    return this;
  }

  continueAsNew(options: ContinueOptions = {}): this {
    options.before?.(this.history);
    const record = {
      turn: this.counters.turns,
      execution: this.counters.executions,
      execution_request_bytes: this.executionRequestBytes,
      messages: this.dialog.length,
      counters: { ...this.counters },
    };
    this.journal('run.continued_as_new', options.record ? options.record(record) : record, {}, options.pendingJournal);
    // The counters as they stand: the next execution counts itself when it starts.
    const resume: Resume = {
      messages: this.dialog,
      counters: { ...this.counters },
      journal: { ...this.journalHead },
    };
    this.counters.executions++;
    const input: RunInput = { ...this.input, resume: options.resume ? options.resume(resume) : resume };
    this.history.workflowTask();
    this.history.continuedAsNew(temporalRunId(this.input.runId, this.executions.length + 1), input);
    this.executionRequestBytes = 0;
    this.startExecution(input);
    return this;
  }

  /** A final turn, the journal's last event and WorkflowExecutionCompleted. */
  complete(): this {
    this.turn({ final: true });
    this.journal('run.completed', { ended: 'done', counters: { ...this.counters } });
    this.history.workflowTask();
    this.history.completed({ runId: this.input.runId, counters: this.counters, finalAnswer: 'done', ended: 'done' });
    return this;
  }

  histories(): { events: JsonObject[] }[] {
    return this.executions.map((history) => history.toJson());
  }

  /** The histories loaded, as the checks receive them. */
  loaded(): LoadedHistory[] {
    return this.histories().map((json, index) => loadHistory(json, { source: `execution-${index + 1}.json` }));
  }
}
