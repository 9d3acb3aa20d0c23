/**
 * The journal's figures against the history they describe, each measured by the checks on their
 * own (UTF-8 bytes of the JSON, as the contract sizes everything), never read from the kernel:
 * - `turn.completed`: `request_bytes` is the size of the turn's call_model request, `tool_calls`
 *   the answer's tool calls, `usage` the answer's usage, `execution_request_bytes` the requests
 *   of its execution so far (what the ContinueAsNew budget counts); `run.continued_as_new`'s
 *   `execution_request_bytes` those of the whole execution;
 * - the sizes a turn's request went through: each `payload.elided` of the request and each
 *   `context.compacted` starts from the size the one before it left (the first from the request
 *   at the boundary, when the history establishes it), and the last leaves the request sent;
 * - what a `payload.elided` counts: whole numbers, its screenshots and tool outputs among its
 *   items; at a turn with no compaction (elision is then the request's only change), its
 *   screenshots are those the request sent lacks against the dialog at the boundary, and its tool
 *   outputs at least the tool messages that changed with their screenshots all kept.
 * A figure the kernel does not journal is not judged. Findings are journal.chain's. A run view,
 * a report and an operator read these records as the run's own account: a kernel that counts one
 * thing and records another misleads all three.
 */
import { canonicalJson } from '../../contract/journal-hash.ts';
import { boundaryBytes, compactedEntryOf, journalOf, turnDialog } from './compactions.ts';
import { dialogBytes, type ExpectedMessage } from './dialog.ts';
import { type Activity, callRequest, type JournaledEvent, type RunView, type Turn } from './run-view.ts';

export function journalFigureFailures(run: RunView): string[] {
  const failures: string[] = [];
  const turns = new Map<number, Turn>();
  const executionBytes = new Map<Turn, number | undefined>();
  for (const execution of run.executions) {
    let sum: number | undefined = 0;
    for (const turn of execution.turns) {
      if (turn.number !== undefined) turns.set(turn.number, turn);
      const sent = sentBytes(turn);
      sum = sum === undefined || sent === undefined ? undefined : sum + sent;
      executionBytes.set(turn, sum);
    }
  }
  for (const entry of journalOf(run, 'turn.completed')) {
    const turn = turns.get(entry.event.turn);
    if (turn) failures.push(...completedFailures(run, entry, turn, executionBytes.get(turn)));
  }
  for (const entry of journalOf(run, 'run.continued_as_new')) {
    const last = entry.activity.execution.turns.at(-1);
    const recorded = entry.event.data.execution_request_bytes;
    const measured = last ? executionBytes.get(last) : 0;
    if (measured !== undefined && differs(recorded, measured)) {
      failures.push(
        `journal seq ${entry.event.seq}: run.continued_as_new says execution_request_bytes ${JSON.stringify(recorded)}, its execution's requests are ${measured} bytes`,
      );
    }
  }
  for (const entry of journalOf(run, 'payload.elided')) failures.push(...elidedCountFailures(entry));
  for (const [number, entries] of sizeRecordsByTurn(run)) {
    const turn = turns.get(number);
    if (!turn) continue;
    // Established once for both rules, and only for a turn that has size records.
    const held = turnDialog(run, turn);
    failures.push(...sizeChainFailures(run, entries, turn, held));
    if (!entries.some((entry) => entry.event.type === 'context.compacted')) failures.push(...elidedItemFailures(entries, turn, held()));
  }
  return failures;
}

/** The size of the turn's call_model request, as it travelled. */
function sentBytes(turn: Turn): number | undefined {
  return turn.calls[0] ? callRequest(turn.calls[0])?.bytes : undefined;
}

function completedFailures(run: RunView, entry: JournaledEvent, turn: Turn, executionSoFar: number | undefined): string[] {
  const { seq, data } = entry.event;
  const call = turn.calls[0] as Activity;
  const where = `journal seq ${seq}: turn.completed of turn ${entry.event.turn}`;
  const failures: string[] = [];
  const sent = sentBytes(turn);
  if (sent !== undefined && differs(data.request_bytes, sent)) {
    failures.push(
      `${where} says request_bytes ${JSON.stringify(data.request_bytes)}; its call_model request (${run.at(call.execution, call.scheduled.id)}) is ${sent} bytes`,
    );
  }
  if (executionSoFar !== undefined && differs(data.execution_request_bytes, executionSoFar)) {
    failures.push(
      `${where} says execution_request_bytes ${JSON.stringify(data.execution_request_bytes)}; the execution's requests through it are ${executionSoFar} bytes`,
    );
  }
  const answered = [...turn.calls].reverse().find((c) => c.result?.kind === 'call-model');
  const result = answered?.result?.kind === 'call-model' ? answered.result : undefined;
  if (!result) return failures;
  const calls = result.answer.toolCallIds?.length ?? 0;
  if (differs(data.tool_calls, calls)) {
    failures.push(`${where} says tool_calls ${JSON.stringify(data.tool_calls)}; the answer makes ${calls}`);
  }
  if (data.usage !== undefined && result.usage !== undefined && canonicalJson(data.usage) !== canonicalJson(result.usage)) {
    failures.push(`${where} says usage ${canonicalJson(data.usage)}; the answer's usage is ${canonicalJson(result.usage)}`);
  }
  return failures;
}

/** The records of a request's sizes (its elisions and compactions), by turn, in journal order. */
function sizeRecordsByTurn(run: RunView): Map<number, JournaledEvent[]> {
  const byTurn = new Map<number, JournaledEvent[]>();
  for (const entry of run.journal) {
    const { type, data, turn } = entry.event;
    if (type !== 'context.compacted' && !(type === 'payload.elided' && data.payload === 'request')) continue;
    const list = byTurn.get(turn);
    if (list) list.push(entry);
    else byTurn.set(turn, [entry]);
  }
  return byTurn;
}

const describeRecord = (entry: JournaledEvent): string =>
  `journal seq ${entry.event.seq}: ${entry.event.type}${entry.event.type === 'payload.elided' ? ' (request)' : ''} of turn ${entry.event.turn}`;

/** Each record starts where the one before left the request; the first at the boundary, the last at the request sent. */
function sizeChainFailures(run: RunView, entries: readonly JournaledEvent[], turn: Turn, held: () => ExpectedMessage[] | null): string[] {
  const failures: string[] = [];
  const [first] = entries;
  const start = first ? startBytes(run, first, turn, held) : undefined;
  if (first && start !== undefined && differs(first.event.data.bytes_before, start)) {
    failures.push(
      `${describeRecord(first)} says bytes_before ${JSON.stringify(first.event.data.bytes_before)}; the request at the boundary is ${start} bytes`,
    );
  }
  entries.forEach((entry, index) => {
    const next = entries[index + 1];
    const after = entry.event.data.bytes_after;
    if (next) {
      if (after !== undefined && differs(next.event.data.bytes_before, after)) {
        failures.push(
          `${describeRecord(next)} says bytes_before ${JSON.stringify(next.event.data.bytes_before)}; seq ${entry.event.seq} left the request at ${JSON.stringify(after)}`,
        );
      }
      return;
    }
    const sent = sentBytes(turn);
    if (sent !== undefined && differs(after, sent)) {
      failures.push(`${describeRecord(entry)} says bytes_after ${JSON.stringify(after)}; the turn's call_model request is ${sent} bytes`);
    }
  });
  return failures;
}

/** Whether a figure the kernel journaled is not the one measured (a figure it left out is not judged). */
const differs = (recorded: unknown, measured: unknown): boolean => recorded !== undefined && recorded !== measured;

/** The request at the boundary before the turn's first size record, when the history establishes it. */
function startBytes(run: RunView, first: JournaledEvent, turn: Turn, held: () => ExpectedMessage[] | null): number | undefined {
  const request = turn.calls[0] ? callRequest(turn.calls[0]) : undefined;
  if (!request) return undefined;
  const envelope = request.bytes - request.messagesBytes;
  if (first.event.type === 'context.compacted') {
    const compaction = turn.compactions.find((c) => compactedEntryOf(run, c) === first);
    return compaction ? (boundaryBytes(compaction, envelope, held) ?? undefined) : undefined;
  }
  const dialog = held();
  const bytes = dialog ? dialogBytes(dialog) : null;
  return bytes === null ? undefined : envelope + bytes;
}

const COUNTS = ['items', 'screenshots', 'tool_outputs', 'elided_bytes'] as const;

/** Each count a whole number; the screenshots and the tool outputs among the items. */
function elidedCountFailures(entry: JournaledEvent): string[] {
  const { data } = entry.event;
  const bad = COUNTS.filter((name) => data[name] !== undefined && !(Number.isInteger(data[name]) && (data[name] as number) >= 0));
  const where = `journal seq ${entry.event.seq}: payload.elided of turn ${entry.event.turn}`;
  if (bad.length > 0) return bad.map((name) => `${where} counts ${name} ${JSON.stringify(data[name])}, not a whole number`);
  const { items, screenshots, tool_outputs } = data as Partial<Record<(typeof COUNTS)[number], number>>;
  if (items !== undefined && (screenshots ?? 0) + (tool_outputs ?? 0) > items) {
    return [`${where} counts ${screenshots} screenshots and ${tool_outputs} tool outputs among ${items} items`];
  }
  return [];
}

/**
 * At a turn with no compaction, the items its request elisions count against the dialog at the
 * boundary and the request sent, tool message by tool message (by call id).
 */
function elidedItemFailures(entries: readonly JournaledEvent[], turn: Turn, held: ExpectedMessage[] | null): string[] {
  const request = turn.calls[0] ? callRequest(turn.calls[0]) : undefined;
  if (request?.format !== 'chat-completions' || !held) return [];
  const sentTools = new Map(request.messages.filter((m) => m.toolCallId !== undefined).map((m) => [m.toolCallId, m]));
  let lostScreenshots = 0;
  let changedTexts = 0;
  for (const before of held) {
    if (before.toolCallId === undefined) continue;
    const after = sentTools.get(before.toolCallId);
    if (!after || 'unknownContent' in before || before.screenshots === undefined || after.screenshots === undefined) return [];
    lostScreenshots += before.screenshots - after.screenshots;
    if (before.hash !== after.hash && before.screenshots === after.screenshots) changedTexts++;
  }
  const sum = (name: string) => entries.reduce((total, entry) => total + ((entry.event.data[name] as number | undefined) ?? 0), 0);
  const where = `journal seq ${entries.map((entry) => entry.event.seq).join(', ')}: payload.elided (request) of turn ${turn.number}`;
  const failures: string[] = [];
  if (entries.every((entry) => entry.event.data.screenshots !== undefined) && sum('screenshots') !== lostScreenshots) {
    failures.push(
      `${where} counts ${sum('screenshots')} screenshots; the request sent has ${lostScreenshots} fewer than the dialog at the boundary`,
    );
  }
  if (entries.every((entry) => entry.event.data.tool_outputs !== undefined) && sum('tool_outputs') < changedTexts) {
    failures.push(
      `${where} counts ${sum('tool_outputs')} tool outputs; ${changedTexts} tool messages of the request sent changed with their screenshots kept`,
    );
  }
  return failures;
}
