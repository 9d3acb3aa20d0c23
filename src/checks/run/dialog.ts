/**
 * The dialog as it stood at a turn boundary, re-established from history alone:
 * - at the first turn of the run: [system prompt, user request] from the run's input (an agent
 *   with an input of its own: its first request);
 * - at the first turn of a continued execution: the `resume.messages` it was started with;
 * - at any later boundary: the messages the previous turn's call_model sent, then its answer,
 *   then one tool message per tool call of that answer (the run_tool result for that call id;
 *   a call whose run_tool did not complete has a tool message of unknown content).
 * The kernel's payload guard may elide big items (journal `payload.elided`); comparisons across
 * a turn with elisions match tool messages by call id only.
 */
import { canonicalJson } from '../../contract/journal-hash.ts';
import { jsonArrayBytes, sha256 } from '../history/messages.ts';
import type { MessageSummary } from '../history/model.ts';
import type { Activity, Execution, RunView, Turn } from './run-view.ts';

export interface UnknownToolMessage {
  role: 'tool';
  toolCallId: string;
  unknownContent: true;
}
export type ExpectedMessage = MessageSummary | UnknownToolMessage;

function isUnknown(message: ExpectedMessage): message is UnknownToolMessage {
  return 'unknownContent' in message;
}

/** Whether every message of the dialog is known (no tool result the history could not read). */
export function knownWhole(dialog: readonly ExpectedMessage[]): boolean {
  return !dialog.some(isUnknown);
}

/** A summary of a message built from its parts (to compare with what the history holds). */
export function expectedMessage(message: Record<string, unknown>): MessageSummary {
  const summary: MessageSummary = {
    role: String(message.role),
    bytes: Buffer.byteLength(JSON.stringify(message)),
    hash: sha256(canonicalJson(message)),
  };
  if (typeof message.content === 'string') summary.text = message.content;
  return summary;
}

/** The messages a completed call_model leaves in the dialog: what it sent, its answer, the tool results. */
export function continuation(call: Activity, execution: Execution): ExpectedMessage[] | null {
  if (call.input.kind !== 'call-model' || call.result?.kind !== 'call-model') return null;
  const answer = call.result.answer;
  const tools = (answer.toolCallIds ?? []).map((id): ExpectedMessage => {
    const run = execution.activities.find(
      (a) => a.input.kind === 'run-tool' && a.input.toolCallId === id && a.scheduled.id > call.scheduled.id,
    );
    return run?.result?.kind === 'run-tool' ? run.result.message : { role: 'tool', toolCallId: id, unknownContent: true };
  });
  return [...call.input.request.messages, answer, ...tools];
}

export function lastCompletedCall(turn: Turn): Activity | undefined {
  return [...turn.calls].reverse().find((call) => call.result?.kind === 'call-model');
}

/** The dialog at the boundary before `turn`; null when the history cannot establish it. */
export function dialogBefore(run: RunView, turn: Turn): ExpectedMessage[] | null {
  const { execution } = turn;
  if (turn.index === 0) return dialogAtStart(run, execution);
  const previous = execution.turns[turn.index - 1] as Turn;
  const call = lastCompletedCall(previous);
  return call ? continuation(call, execution) : null;
}

/**
 * The dialog an execution starts with: the run's system prompt and user request, or what it
 * resumes. An agent started with an input of its own says nothing of its dialog: its first
 * request is taken as the start, and the turns after it are judged against it.
 */
export function dialogAtStart(run: RunView, execution: Execution): ExpectedMessage[] | null {
  if (execution.input.resume) return execution.input.resume.messages;
  if (execution.number > 1) return null;
  if (!run.mechanism.found) {
    const first = execution.turns[0]?.calls[0];
    return first?.input.kind === 'call-model' ? first.input.request.messages : null;
  }
  return [
    expectedMessage({ role: 'system', content: run.input.systemPrompt }),
    expectedMessage({ role: 'user', content: run.input.userRequest }),
  ];
}

/** The dialog when the execution ended (after its last turn); null when unknown. */
export function dialogAtEnd(execution: Execution): ExpectedMessage[] | null {
  const last = execution.turns.at(-1);
  if (!last) return execution.input.resume?.messages ?? null;
  const call = lastCompletedCall(last);
  return call ? continuation(call, execution) : null;
}

/** Serialized bytes of a dialog's messages array; null when a message's content is unknown. */
export function dialogBytes(messages: readonly ExpectedMessage[]): number | null {
  if (messages.some(isUnknown)) return null;
  return jsonArrayBytes((messages as MessageSummary[]).map((m) => m.bytes));
}

function describe(message: ExpectedMessage): string {
  if (message.toolCallId) return `${message.role} ${message.toolCallId}`;
  const calls = isUnknown(message) ? undefined : message.toolCallIds;
  return calls?.length ? `${message.role} calling ${calls.join(', ')}` : message.role;
}

/** Whether a message the history holds is the expected one (by call id only when `relaxed`). */
function matches(actual: MessageSummary, expected: ExpectedMessage, relaxed: boolean): boolean {
  if (isUnknown(expected) || (relaxed && expected.role === 'tool')) {
    return actual.role === 'tool' && actual.toolCallId === expected.toolCallId;
  }
  return actual.hash === expected.hash;
}

/** The first difference between the messages held and the dialog expected, or null when equal. */
export function dialogDifference(actual: readonly MessageSummary[], expected: readonly ExpectedMessage[], relaxed = false): string | null {
  const length = Math.min(actual.length, expected.length);
  for (let i = 0; i < length; i++) {
    const a = actual[i] as MessageSummary;
    const e = expected[i] as ExpectedMessage;
    if (!matches(a, e, relaxed)) {
      return sameShape(a, e)
        ? `message ${i} (${describe(a)}) differs from the dialog's`
        : `message ${i} is ${describe(a)} where the dialog has ${describe(e)}`;
    }
  }
  if (actual.length !== expected.length) {
    return `${actual.length} messages where the dialog has ${expected.length}`;
  }
  return null;
}

/** Whether the message held matches one expected message (used for suffix comparisons). */
export function sameMessage(actual: MessageSummary, expected: ExpectedMessage, relaxed = false): boolean {
  return matches(actual, expected, relaxed);
}

/** Same role, same tool calls, same call id: the message with its contents possibly elided. */
export function sameShape(actual: MessageSummary, expected: ExpectedMessage): boolean {
  if (actual.role !== expected.role || actual.toolCallId !== expected.toolCallId) return false;
  const expectedCalls = isUnknown(expected) ? undefined : expected.toolCallIds;
  return (actual.toolCallIds ?? []).join(',') === (expectedCalls ?? []).join(',');
}
