/**
 * The agent-run workflow: the turn loop of docs/spec/compaction.md §3-§5. Each turn builds the request, guards its
 * size, compacts the context when it passes the trigger, calls the model, runs the tools the
 * answer asks for and journals the turn; ContinueAsNew once this execution has sent its budget
 * of request bytes. Compaction, rebuild, ContinueAsNew and the guard's honest last boundary sit
 * behind the `context-compaction` gate, so that histories written without them replay as written.
 */
import { ApplicationFailure, isCancellation, makeContinueAsNewFunc, patched, workflowInfo } from '@temporalio/workflow';
import { FAILURE_TYPE } from '../../contract/failure-types.ts';
import type {
  CompactContextInput,
  CompactedData,
  CompactionFailedData,
  KernelLimits,
  RunCounters,
  RunInput,
  RunResult,
} from '../../contract/kernel-api.ts';
import { GENESIS_HASH } from '../../contract/kernel-api.ts';
import { COMPACTION_PATCH_ID, HISTORY_PRESSURE_PATCH_ID } from '../../contract/limits.ts';
import type { ChatRequest, CompactionItem, Message, ToolCall } from '../../contract/messages.ts';
import { jsonBytes } from '../context/bytes.ts';
import { type GuardPolicy, type GuardResult, guardMessages } from '../context/guard.ts';
import { historyCallsForContinueAsNew } from '../context/history-pressure.ts';
import { bigItemThresholdBytes, guardTargetBytes } from '../context/limits.ts';
import { afterProviderCompaction, providerCompaction } from '../context/provider-compaction.ts';
import { rebuildMessages } from '../context/rebuild.ts';
import { buildAgentRequest, overheadBytes } from '../context/request.ts';
import { checkRunInput } from '../context/run-input.ts';
import { callModel, compactContext, journalAppend, runTool } from './activity-proxies.ts';
import { JournalWriter } from './journal-writer.ts';
import type { KernelOptions } from './kernel-options.ts';

export type AgentRunWorkflow = (input: RunInput) => Promise<RunResult>;

export function createAgentRun(options: KernelOptions): AgentRunWorkflow {
  return async (input) => new AgentRun(input, options, checkedLimits(input)).run();
}

function checkedLimits(input: RunInput): KernelLimits {
  try {
    return checkRunInput(input);
  } catch (error) {
    throw ApplicationFailure.create({
      type: FAILURE_TYPE.invalidRunInput,
      nonRetryable: true,
      message: messageOf(error),
    });
  }
}

interface Guarded {
  messages: Message[];
  /** The payload's serialized size after the guard (overhead included): no need to serialize it again. */
  bytes: number;
  /** Set when the gated guard could not bring the payload under the limit. */
  blocked: GuardResult | null;
}

interface GuardedRequest {
  request: ChatRequest;
  bytes: number;
  blocked: GuardResult | null;
}

type PayloadKind = 'request' | 'compaction' | 'continue_as_new';

class AgentRun {
  private messages: Message[];
  private readonly counters: RunCounters;
  private readonly journal: JournalWriter;
  /** Request bytes sent in this execution: what the ContinueAsNew budget counts. */
  private executionRequestBytes = 0;

  constructor(
    private readonly input: RunInput,
    private readonly options: KernelOptions,
    private readonly limits: KernelLimits,
  ) {
    const resume = input.resume;
    this.messages = resume
      ? [...resume.messages]
      : [
          { role: 'system', content: input.systemPrompt },
          { role: 'user', content: input.userRequest },
        ];
    this.counters = resume
      ? { ...resume.counters, executions: resume.counters.executions + 1 }
      : {
          turns: 0,
          totalRequestBytes: 0,
          compactions: 0,
          compactionFailures: 0,
          executions: 1,
        };
    this.journal = new JournalWriter(input.runId, resume?.journal ?? { nextSeq: 1, headHash: GENESIS_HASH }, journalAppend);
  }

  async run(): Promise<RunResult> {
    if (!this.input.resume) {
      this.journal.append('run.started', 0, {
        max_turns: this.input.maxTurns,
        limits: { ...this.limits },
      });
    }
    let finalAnswer: string | null = null;
    let ended: RunResult['ended'] = 'max-turns';
    while (this.counters.turns < this.input.maxTurns) {
      this.journal.throwIfFailed();
      await this.continueAsNewIfDue();
      const turn = this.counters.turns + 1;
      const { request, bytes } = await this.prepareRequest(turn);
      const { message, usage, compaction } = await callModel({
        runId: this.input.runId,
        turn,
        request,
      });
      this.executionRequestBytes += bytes;
      this.counters.totalRequestBytes += bytes;
      const calls = message.tool_calls ?? [];
      const results = await Promise.all(calls.map((call) => this.runToolCall(turn, call)));
      this.messages = [...this.conversationAfter(compaction), message, ...results];
      this.counters.turns = turn;
      this.journal.append('turn.completed', turn, {
        turn,
        request_bytes: bytes,
        usage: { ...usage },
        tool_calls: calls.length,
        execution_request_bytes: this.executionRequestBytes,
      });
      if (calls.length === 0) {
        finalAnswer = message.content;
        ended = 'done';
        break;
      }
    }
    this.journal.append('run.completed', this.counters.turns, {
      ended,
      counters: { ...this.counters },
    });
    await this.journal.drain();
    return {
      runId: this.input.runId,
      counters: { ...this.counters },
      finalAnswer,
      ended,
    };
  }

  /** The gate: asked only where the gated and the ungated paths would differ. */
  private gateOpen(): boolean {
    if (this.options.gate === 'never') return false;
    return patched(COMPACTION_PATCH_ID);
  }

  /**
   * Guard, then compact when due, then guard again. A request the gated guard cannot bring under
   * the limit ends the run, but only after compaction had its chance to shrink it.
   */
  private async prepareRequest(turn: number): Promise<GuardedRequest> {
    let guarded = this.guardedRequest(turn);
    if (this.compactionDue(guarded.bytes) && (await this.compact(turn, guarded.bytes))) {
      guarded = this.guardedRequest(turn);
    }
    if (guarded.blocked) await this.failGuard(turn, 'request', guarded.blocked);
    return guarded;
  }

  /** The request is larger than the trigger (the spec: larger, not reached). */
  private compactionDue(requestBytes: number): boolean {
    return requestBytes > this.limits.compactionTriggerBytes && this.gateOpen();
  }

  /** The conversation the answer follows: as it was, or what the provider's compaction item left of it. */
  private conversationAfter(compaction: CompactionItem | undefined): Message[] {
    if (!compaction || this.options.contextManagement !== 'provider') return this.messages;
    return afterProviderCompaction(this.messages, compaction);
  }

  /** Builds this turn's request from the messages and guards it; elisions stay in the messages. */
  private guardedRequest(turn: number): GuardedRequest {
    const request = this.withContextManagement(
      buildAgentRequest({
        runId: this.input.runId,
        turn,
        model: this.input.settings.agent.model,
        messages: [],
      }),
    );
    const { messages, bytes, blocked } = this.guard(turn, 'request', overheadBytes(request));
    this.messages = messages;
    return { request: { ...request, messages }, bytes, blocked };
  }

  /** Where the provider compacts: every request asks it to, past the trigger in tokens. */
  private withContextManagement(request: ChatRequest): ChatRequest {
    if (this.options.contextManagement !== 'provider') return request;
    return { ...request, context_management: [providerCompaction(this.limits)] };
  }

  /**
   * Elides big items until the payload fits. Where v0 sends an oversized payload anyway, the
   * gated path elides further and, failing that, reports the payload as blocked.
   */
  private guard(turn: number, payload: PayloadKind, overhead: number, policy: Partial<GuardPolicy> = {}): Guarded {
    const input = {
      messages: this.messages,
      overheadBytes: overhead,
      targetBytes: this.guardTarget(),
      bigItemBytes: bigItemThresholdBytes(this.limits),
    };
    let result = guardMessages(input, { exhaustive: false, ...policy });
    let blocked: GuardResult | null = null;
    if (!result.fits && this.gateOpen()) {
      result = guardMessages(input, { exhaustive: true, ...policy });
      if (!result.fits) blocked = result;
    }
    if (result.elided.length > 0) this.journal.append('payload.elided', turn, elidedData(turn, payload, result));
    return { messages: result.messages, bytes: result.bytesAfter, blocked };
  }

  /** The honest last boundary: end the run rather than schedule a payload over the blob limit. */
  private async failGuard(turn: number, payload: PayloadKind, result: GuardResult): Promise<never> {
    await this.journal.drain();
    const what = payload === 'request' ? `the request of turn ${turn}` : `the ${payload.replaceAll('_', ' ')} payload`;
    throw ApplicationFailure.create({
      type: FAILURE_TYPE.payloadGuard,
      nonRetryable: true,
      message:
        `${what} is ${result.bytesAfter} bytes after eliding ${result.elided.length} items and cannot be brought ` +
        `under ${this.guardTarget()} bytes (blob limit ${this.limits.blobLimitBytes})`,
    });
  }

  /** Replaces the messages with the rebuild around a fresh card; false when compaction failed. */
  private async compact(turn: number, bytesBefore: number): Promise<boolean> {
    try {
      const { card } = await compactContext(this.compactionInput(turn));
      const rebuilt = rebuildMessages(this.messages, card, this.limits);
      this.messages = rebuilt.messages;
      this.counters.compactions++;
      const bytesAfter = jsonBytes(
        buildAgentRequest({
          runId: this.input.runId,
          turn,
          model: this.input.settings.agent.model,
          messages: this.messages,
        }),
      );
      const data: CompactedData = {
        turn,
        bytes_before: bytesBefore,
        bytes_after: bytesAfter,
        card,
        kept: rebuilt.kept,
        dropped: rebuilt.dropped,
      };
      this.journal.append('context.compacted', turn, { ...data });
      return true;
    } catch (error) {
      if (isCancellation(error)) throw error;
      this.counters.compactionFailures++;
      const data: CompactionFailedData = { turn, reason: failureReason(error) };
      this.journal.append('context.compaction_failed', turn, { ...data });
      return false;
    }
  }

  /**
   * The history as the compaction activity gets it: as guarded for the request, unless the
   * request could not be brought under the limit; then assistant texts may be elided too, for
   * this input only, so that compaction can still shrink the run.
   */
  private compactionInput(turn: number): CompactContextInput {
    const input: CompactContextInput = {
      runId: this.input.runId,
      turn,
      messages: [],
      settings: this.input.settings,
      cardMaxBytes: this.limits.cardMaxBytes,
    };
    const guarded = this.guard(turn, 'compaction', overheadBytes(input), { elidesAssistantText: true });
    if (guarded.blocked) throw new Error(`the compaction input is ${guarded.blocked.bytesAfter} bytes, over the limit`);
    return { ...input, messages: guarded.messages };
  }

  /** A tool that fails for good answers with an error text, so every tool call keeps its result. */
  private async runToolCall(turn: number, call: ToolCall): Promise<Message> {
    try {
      const result = await runTool({ runId: this.input.runId, turn, call });
      return { role: 'tool', tool_call_id: call.id, content: result.content };
    } catch (error) {
      if (isCancellation(error)) throw error;
      return {
        role: 'tool',
        tool_call_id: call.id,
        content: `[tool error: ${failureReason(error)}]`,
      };
    }
  }

  /**
   * At a clean turn boundary, once this execution has sent its budget (or, in v2, once its history
   * calls for it): carry on in a fresh one.
   */
  private async continueAsNewIfDue(): Promise<void> {
    if (!this.budgetSpent() && !this.historyPressed()) return;
    const turn = this.counters.turns;
    const carried = {
      ...this.input,
      resume: {
        messages: [],
        counters: this.counters,
        journal: this.journal.head,
      },
    };
    const guarded = this.guard(turn + 1, 'continue_as_new', overheadBytes(carried));
    if (guarded.blocked) await this.failGuard(turn + 1, 'continue_as_new', guarded.blocked);
    this.messages = guarded.messages;
    this.journal.append('run.continued_as_new', turn, {
      turn,
      execution: this.counters.executions,
      execution_request_bytes: this.executionRequestBytes,
      messages: this.messages.length,
      counters: { ...this.counters },
    });
    const journal = await this.journal.drain();
    await continueAsNewOnCurrentVersion({
      ...this.input,
      resume: {
        messages: this.messages,
        counters: { ...this.counters },
        journal,
      },
    });
  }

  /** This execution has sent more than its budget of request bytes (the spec: exceeded, not reached). */
  private budgetSpent(): boolean {
    return this.executionRequestBytes > this.limits.continueAsNewBytes && this.gateOpen();
  }

  /**
   * v2: the history's own length and size, as the server reports them. Its gate is asked first,
   * so that replaying a history written without it (v1's) never asks
   * the compaction gate where v1 did not. At least one model call in this execution first: a carried dialog that is itself
   * over a bound must not continue as new for ever.
   */
  private historyPressed(): boolean {
    const mode = this.options.continuesAsNewOnHistory;
    return (
      mode !== 'never' &&
      this.executionRequestBytes > 0 &&
      historyCallsForContinueAsNew(workflowInfo()) &&
      patched(HISTORY_PRESSURE_PATCH_ID) &&
      this.gateOpen()
    );
  }

  /** The largest request the payload guard lets through. */
  private guardTarget(): number {
    return guardTargetBytes(this.limits);
  }
}

/**
 * ContinueAsNew; on a worker with a deployment version (Worker Versioning), the next execution
 * starts on the deployment's current version (`AUTO_UPGRADE` for its first task) rather than
 * staying pinned to this one's build: a pinned run picks up a new release at its next
 * ContinueAsNew without a patch. The command's attributes are not compared on replay, so the
 * option changes no history that replays.
 */
function continueAsNewOnCurrentVersion(input: RunInput): Promise<never> {
  const versioned = workflowInfo().currentDeploymentVersion !== undefined;
  return makeContinueAsNewFunc<AgentRunWorkflow>(versioned ? { initialVersioningBehavior: 'AUTO_UPGRADE' } : {})(input);
}

function elidedData(turn: number, payload: PayloadKind, result: GuardResult): Record<string, unknown> {
  return {
    turn,
    payload,
    items: result.elided.length,
    screenshots: result.elided.filter((item) => item.kind === 'screenshot').length,
    tool_outputs: result.elided.filter((item) => item.kind === 'tool_output').length,
    elided_bytes: result.elided.reduce((sum, item) => sum + item.bytes, 0),
    bytes_before: result.bytesBefore,
    bytes_after: result.bytesAfter,
  };
}

/** One line for the journal: the innermost cause of an activity failure. */
function failureReason(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const type = current instanceof ApplicationFailure && current.type ? `${current.type}: ` : '';
  return `${type}${messageOf(current)}`.split('\n')[0] ?? '';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
