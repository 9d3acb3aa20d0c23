/**
 * A run's shape, turn by turn, read from its histories: what each model turn answered (its
 * assistant text's bytes, its tool calls by tool name with the byte sizes of their outputs) and
 * which of Temporal's limits broke it, at which turn. Sizes only: no text of the run is kept, so
 * a profile can be shared where the history cannot (`longrun scenario from-history`).
 */

import { historyLimitOf } from '../../contract/history-limits.ts';
import type { KernelLimits } from '../../contract/kernel-api.ts';
import type { MessageSummary, PartSummary } from '../history/model.ts';
import { type Incident, isPayloadTooLarge } from '../incidents.ts';
import type { Execution, RunView } from './run-view.ts';

const PNG_DATA_URL_PREFIX_BYTES = 'data:image/png;base64,'.length;

export interface ProfiledCall {
  /** The tool's name as the model called it. */
  tool: string;
  /** The output's text in UTF-8 bytes (a screenshot's caption and page text); 0 when no output was seen. */
  textBytes: number;
  /** A screenshot's image bytes (decoded from its data URL), when the output carries one. */
  imageBytes?: number;
  /** A text output's bytes as the request carries it: JSON-escaped, with its quotes. */
  jsonBytes?: number;
}

export interface ProfiledTurn {
  /** The kernel's turn number (1-based), or the turn's position in the run. */
  turn: number;
  /** UTF-8 bytes of the assistant's text (what it says beside its calls). */
  textBytes: number;
  calls: ProfiledCall[];
}

/** Where the run broke: the first limit it hit, and the turn whose model call was under way or due. */
export interface RunBreak {
  incident: Incident;
  turn: number;
}

export interface RunProfile {
  runId: string;
  workflowType: string;
  /** The task queue the run started on. */
  taskQueue?: string;
  systemPromptBytes: number;
  userRequestBytes: number;
  maxTurns: number;
  /** The kernel limits the run was given (its RunInput), as far as the history says. */
  limits: Partial<KernelLimits>;
  /** Every turn the model answered, in order, across executions. */
  turns: ProfiledTurn[];
  /** The first limit the run hit; null when it hit none. */
  break: RunBreak | null;
}

function textBytes(parts: readonly PartSummary[] | undefined): number {
  return (parts ?? []).filter((p) => p.kind === 'text').reduce((sum, p) => sum + (p.bytes ?? 0), 0);
}

function imageBytes(parts: readonly PartSummary[] | undefined): number | undefined {
  const images = (parts ?? []).filter((p) => p.kind === 'screenshot');
  if (images.length === 0) return undefined;
  const base64 = images.reduce((sum, p) => sum + Math.max(0, (p.bytes ?? 0) - PNG_DATA_URL_PREFIX_BYTES), 0);
  return Math.floor((base64 * 3) / 4);
}

/** A text output's content as JSON: the tool message's bytes less its envelope. */
function contentJsonBytes(message: MessageSummary | undefined): number | undefined {
  const parts = message?.parts;
  if (message?.role !== 'tool' || parts?.length !== 1 || parts[0]?.kind !== 'text') return undefined;
  const envelope = Buffer.byteLength(JSON.stringify({ role: 'tool', tool_call_id: message.toolCallId ?? '', content: '' })) - 2;
  const bytes = message.bytes - envelope;
  return bytes >= (parts[0].bytes ?? 0) + 2 ? bytes : undefined;
}

/** Every tool message the run's histories hold (tool results, and tool messages of the requests), by call id. */
function toolMessages(executions: readonly Execution[]): Map<string, MessageSummary> {
  const byId = new Map<string, MessageSummary>();
  const activities = executions.flatMap((execution) => execution.activities);
  // The tool's own result first: a later request may carry it elided (a placeholder for its image).
  for (const activity of activities) {
    const message = activity.result?.kind === 'run-tool' ? activity.result.message : undefined;
    if (message?.toolCallId !== undefined) byId.set(message.toolCallId, message);
  }
  for (const activity of activities) {
    if (activity.input.kind !== 'call-model') continue;
    for (const message of activity.input.request.messages) {
      if (message.toolCallId !== undefined && !byId.has(message.toolCallId)) byId.set(message.toolCallId, message);
    }
  }
  return byId;
}

/** The answer of a turn: its last model call that completed. */
function answerOf(calls: Execution['turns'][number]['calls']): MessageSummary | undefined {
  for (const call of [...calls].reverse()) if (call.result?.kind === 'call-model') return call.result.answer;
  return undefined;
}

function profileTurns(executions: readonly Execution[]): ProfiledTurn[] {
  const outputs = toolMessages(executions);
  const turns: ProfiledTurn[] = [];
  for (const execution of executions) {
    for (const turn of execution.turns) {
      const answer = answerOf(turn.calls);
      if (!answer) continue;
      const ids = answer.toolCallIds ?? [];
      turns.push({
        turn: turn.number ?? turns.length + 1,
        textBytes: textBytes(answer.parts),
        calls: ids.map((id, i) => {
          const output = outputs.get(id);
          const image = imageBytes(output?.parts);
          const json = contentJsonBytes(output);
          return {
            tool: answer.toolCallNames?.[i] || 'unknown',
            textBytes: textBytes(output?.parts),
            ...(image === undefined ? {} : { imageBytes: image }),
            ...(json === undefined ? {} : { jsonBytes: json }),
          };
        }),
      });
    }
  }
  return turns;
}

/**
 * The first limit the run hit and the turn it hit it at: the turn of the last model call
 * scheduled before it, or the next turn when that call had already answered (the request that
 * broke, or would have come next, is that turn's).
 */
export function breakOf(run: RunView): RunBreak | null {
  let turnsBefore = 0;
  for (const execution of run.executions) {
    for (const event of execution.history.events) {
      let incident: Incident | undefined;
      if (isPayloadTooLarge(event)) incident = 'tmprl1103';
      else if (event.type === 'WorkflowExecutionTerminated') {
        incident = historyLimitOf((event.attrs as { reason?: string }).reason ?? '');
      }
      if (!incident) continue;
      const started = execution.turns.filter((t) => (t.calls[0]?.scheduled.id ?? Number.POSITIVE_INFINITY) < event.id);
      const last = started.at(-1);
      if (!last) return { incident, turn: turnsBefore + 1 };
      const number = last.number ?? turnsBefore + started.length;
      const answered = last.calls.some((c) => c.outcome === 'completed' && (c.closed?.id ?? Number.POSITIVE_INFINITY) < event.id);
      return { incident, turn: answered ? number + 1 : number };
    }
    const lastTurn = execution.turns.at(-1);
    turnsBefore = lastTurn?.number ?? turnsBefore + execution.turns.length;
  }
  return null;
}

/** The run's shape and how it broke, from its view (buildRunView). */
export function profileRun(run: RunView): RunProfile {
  const first = run.executions[0];
  const start = first?.history.events[0]?.attrs;
  const request = first?.turns[0]?.calls[0]?.input;
  const messages = request?.kind === 'call-model' ? request.request.messages : [];
  const bytesOf = (text: string, role: string) =>
    text !== '' ? Buffer.byteLength(text) : (messages.find((m) => m.role === role)?.bytes ?? 0);
  return {
    runId: run.input.runId,
    workflowType: start?.kind === 'workflow-started' ? start.workflowType : '',
    ...(start?.kind === 'workflow-started' && start.taskQueue ? { taskQueue: start.taskQueue } : {}),
    systemPromptBytes: bytesOf(run.input.systemPrompt, 'system'),
    userRequestBytes: bytesOf(run.input.userRequest, 'user'),
    maxTurns: run.input.maxTurns,
    limits: run.input.limits,
    turns: profileTurns(run.executions),
    break: breakOf(run),
  };
}
