/**
 * The run's account of itself, in its journal and its result: the journal opens with `run.started` (once, turn
 * 0, echoing the input's `maxTurns` and every limit the input names), closes with `run.completed`
 * (once, its last event, `ended` `done` or `max-turns`, the counters it ended with), which a run
 * that completed must have; and the workflow's result says what `run.completed` says (its run
 * id, `ended` and counters, which count the journal's compactions, its failed compactions and
 * the executions); each `run.continued_as_new` counts what the next execution resumes with (its
 * counters, and as many messages when it says how many); a compaction's record names its turn, a failed one its reason; each
 * `payload.elided` names the payload it elided (`request`,
 * `compaction` or `continue_as_new`: the checks relax their comparison of that payload's tool
 * contents on its word). The run view and whatever reads the result take all of it as given.
 * Its findings are journal.chain's.
 */
import { canonicalJson } from '../../contract/journal-hash.ts';
import type { JournalEvent } from '../../contract/kernel-api.ts';
import type { RunView } from './run-view.ts';

const ENDINGS = ['done', 'max-turns'];
const ELIDED_PAYLOADS = ['request', 'compaction', 'continue_as_new'];

export function journalAccountFailures(view: RunView): string[] {
  const journal = view.journal.map((entry) => entry.event);
  if (journal.length === 0) return [];
  const failures: string[] = [];
  const first = journal[0];
  if (first?.type !== 'run.started' || first.turn !== 0) {
    failures.push(`journal seq ${first?.seq}: the journal opens with ${first?.type} (turn ${first?.turn}), not run.started at turn 0`);
  }
  for (const event of journal.slice(1).filter((e) => e.type === 'run.started'))
    failures.push(`journal seq ${event.seq}: run.started again`);
  if (first?.type === 'run.started') failures.push(...startedFailures(first.seq, first.data, view));
  for (const event of journal.filter((e) => e.type === 'context.compacted' || e.type === 'context.compaction_failed')) {
    if (event.data.turn !== event.turn)
      failures.push(
        `journal seq ${event.seq}: ${event.type}'s data names turn ${JSON.stringify(event.data.turn)}, the event turn ${event.turn}`,
      );
    if (event.type === 'context.compaction_failed' && (typeof event.data.reason !== 'string' || event.data.reason === '')) {
      failures.push(`journal seq ${event.seq}: context.compaction_failed gives no reason`);
    }
  }
  for (const event of journal.filter((e) => e.type === 'payload.elided' && !ELIDED_PAYLOADS.includes(e.data.payload as string))) {
    failures.push(
      `journal seq ${event.seq}: payload.elided names payload ${JSON.stringify(event.data.payload)}, not ${ELIDED_PAYLOADS.join(', ')}`,
    );
  }

  failures.push(...continuedFailures(view));

  const completed = journal.filter((event) => event.type === 'run.completed');
  for (const event of completed.slice(1)) failures.push(`journal seq ${event.seq}: run.completed again`);
  const last = journal.at(-1);
  const [closing] = completed;
  if (closing && closing !== last)
    failures.push(`journal seq ${closing.seq}: run.completed is not the journal's last event (seq ${last?.seq} is)`);
  const end = view.executions.at(-1)?.end;
  if (end?.kind === 'completed' && !closing)
    failures.push(`the run completed, and its journal has no run.completed (last: seq ${last?.seq} ${last?.type})`);
  if (closing) {
    const { ended, counters } = closing.data;
    if (typeof ended !== 'string' || !ENDINGS.includes(ended)) {
      failures.push(`journal seq ${closing.seq}: run.completed's ended is ${JSON.stringify(ended)}, not ${ENDINGS.join(' or ')}`);
    }
    if (typeof (counters as { turns?: unknown } | undefined)?.turns !== 'number') {
      failures.push(`journal seq ${closing.seq}: run.completed carries no counters with the turns it completed`);
    }
    failures.push(...counterFailures(closing.seq, counters, journal, view.executions.length));
    const attrs = end?.event.attrs;
    if (attrs?.kind === 'workflow-closed' && attrs.result !== undefined) failures.push(...resultFailures(attrs.result, closing.data, view));
  }
  return failures;
}

/** Each execution's last run.continued_as_new against the input the next execution resumes with. */
function continuedFailures(view: RunView): string[] {
  const failures: string[] = [];
  for (const [index, execution] of view.executions.entries()) {
    const resume = view.executions[index + 1]?.input.resume;
    const record = execution.journal.filter((entry) => entry.event.type === 'run.continued_as_new').at(-1)?.event;
    if (!resume || !record) continue;
    const next = `execution ${execution.number + 1}`;
    const { counters, messages } = record.data;
    if (canonicalJson(counters ?? null) !== canonicalJson(resume.counters)) {
      failures.push(
        `journal seq ${record.seq}: run.continued_as_new counts ${canonicalJson(counters ?? null)}, ${next} resumes with ${canonicalJson(resume.counters)}`,
      );
    }
    if (messages !== undefined && messages !== resume.messages.length) {
      failures.push(
        `journal seq ${record.seq}: run.continued_as_new carries ${JSON.stringify(messages)} messages, ${next} resumes with ${resume.messages.length}`,
      );
    }
  }
  return failures;
}

/** run.completed's counters against the journal's own events and the executions the run took. */
function counterFailures(seq: number, counters: unknown, journal: readonly JournalEvent[], executions: number): string[] {
  if (typeof counters !== 'object' || counters === null) return [];
  const counted = counters as Record<string, unknown>;
  const expected: Record<string, number> = {
    compactions: journal.filter((e) => e.type === 'context.compacted').length,
    compactionFailures: journal.filter((e) => e.type === 'context.compaction_failed').length,
    executions,
  };
  return Object.entries(expected)
    .filter(([name, value]) => counted[name] !== undefined && counted[name] !== value)
    .map(
      ([name, value]) =>
        `journal seq ${seq}: run.completed counts ${name} ${JSON.stringify(counted[name])}, the journal and the history ${value}`,
    );
}

function startedFailures(seq: number, data: Record<string, unknown>, view: RunView): string[] {
  const failures: string[] = [];
  const { maxTurns, limits } = view.input;
  if (maxTurns > 0 && data.max_turns !== maxTurns) {
    failures.push(`journal seq ${seq}: run.started's max_turns is ${JSON.stringify(data.max_turns)}, the input's maxTurns ${maxTurns}`);
  }
  const logged = (data.limits ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(limits)) {
    if (logged[name] !== value)
      failures.push(`journal seq ${seq}: run.started's limits.${name} is ${JSON.stringify(logged[name])}, the input's ${value}`);
  }
  return failures;
}

/** The result, read as the contract's RunResult, against run.completed. */
function resultFailures(result: unknown, completed: Record<string, unknown>, view: RunView): string[] {
  if (typeof result !== 'object' || result === null) return [`the workflow's result is ${JSON.stringify(result)}, not a RunResult`];
  const { runId, ended, counters } = result as Record<string, unknown>;
  const failures: string[] = [];
  if (runId !== view.input.runId) failures.push(`the workflow's result names run ${JSON.stringify(runId)}, not ${view.input.runId}`);
  if (ended !== completed.ended) {
    failures.push(`the workflow's result says it ended ${JSON.stringify(ended)}, run.completed ${JSON.stringify(completed.ended)}`);
  }
  if (canonicalJson(counters ?? null) !== canonicalJson(completed.counters ?? null)) {
    failures.push(
      `the workflow's result counts ${canonicalJson(counters ?? null)}, run.completed ${canonicalJson(completed.counters ?? null)}`,
    );
  }
  return failures;
}
