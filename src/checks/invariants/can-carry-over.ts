import { canonicalJson } from '../../contract/journal-hash.ts';
import { GENESIS_HASH, type RunCounters } from '../../contract/kernel-api.ts';
import type { ResolvedContext } from '../context.ts';
import type { RunInputSummary } from '../history/model.ts';
import { acceptedAt, dialogBeforeCompaction } from '../run/compactions.ts';
import { dialogAtEnd, dialogDifference } from '../run/dialog.ts';
import { checkRebuild } from '../run/rebuild.ts';
import { callRequest, type Execution, type RunView } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, judge } from '../verdict.ts';

const NO_COUNTERS: RunCounters = { turns: 0, totalRequestBytes: 0, compactions: 0, compactionFailures: 0, executions: 0 };

/**
 * What the counters must say at the end of `execution`: those it was started with, plus what its
 * history shows (turns with a completed call_model and their request bytes, compactions and
 * failures journaled), and `executions` one more (this execution: the count so far). The request
 * bytes are left out where a completed call's request cannot be read.
 */
function expectedCounters(execution: Execution): Partial<RunCounters> {
  const before = execution.input.resume?.counters ?? NO_COUNTERS;
  const inExecution = (type: string) => execution.journal.filter((entry) => entry.event.type === type).length;
  const sent = execution.turns.flatMap((turn) => {
    const completed = turn.calls.filter((call) => call.outcome === 'completed').at(-1);
    return completed ? [callRequest(completed)?.bytes] : [];
  });
  // A request the checks cannot read (a payload codec's) leaves the bytes sent unknown: not judged.
  const bytesSent = sent.reduce<number | undefined>((sum, b) => (sum === undefined || b === undefined ? undefined : sum + b), 0);
  return {
    turns: before.turns + sent.length,
    ...(bytesSent === undefined ? {} : { totalRequestBytes: before.totalRequestBytes + bytesSent }),
    compactions: before.compactions + inExecution('context.compacted'),
    compactionFailures: before.compactionFailures + inExecution('context.compaction_failed'),
    executions: before.executions + 1,
  };
}

/**
 * Whether the kernel elided its ContinueAsNew input: a `payload.elided` journaled under the turn
 * after the execution's last (the turn the carried dialog is for). An elision under any other
 * turn is not the ContinueAsNew's, and the carried dialog is then held to the dialog whole. Where
 * the call_model inputs do not name their turns, any elision after the last one counts.
 */
function elidedAtEnd(execution: Execution): boolean {
  const last = execution.turns.at(-1);
  const lastTurn = last ? last.number : (execution.input.resume?.counters.turns ?? 0);
  return execution.journal.some(
    (entry) => entry.event.type === 'payload.elided' && (lastTurn === undefined ? true : entry.event.turn === lastTurn + 1),
  );
}

/** The journal head after `execution`: its last event (sent, if not yet confirmed, counts). */
function expectedHead(run: RunView, execution: Execution): { nextSeq: number; headHash: string } {
  // The last event of this execution, else of the nearest one before it that wrote any.
  for (let number = execution.number; number >= 1; number--) {
    const last = run.executions[number - 1]?.journal.at(-1);
    if (last) return { nextSeq: last.event.seq + 1, headHash: last.hash };
  }
  return execution.input.resume?.journal ?? { nextSeq: run.mapping.journalFirstSeq, headHash: GENESIS_HASH };
}

function changedFields(a: RunInputSummary, b: RunInputSummary): string {
  const fields = (['runId', 'systemPrompt', 'userRequest', 'maxTurns'] as const).filter((f) => a[f] !== b[f]);
  return fields.length > 0 ? fields.join(', ') : 'settings or limits';
}

/** Every way the ContinueAsNew at the end of `execution` fails to carry the run over. */
function carryOverFailures(run: RunView, ctx: ResolvedContext, execution: Execution, carried: RunInputSummary, where: string): string[] {
  const failures: string[] = [];
  if (carried.fixedHash !== execution.input.fixedHash) {
    failures.push(`${where}: the input changed beyond resume (${changedFields(carried, execution.input)})`);
  }
  const resume = carried.resume;
  if (!resume) return [...failures, `${where}: the input carries no resume`];

  const trailing = acceptedAt(run, execution.trailingCompactions);
  if (trailing) {
    // Compacted after the last turn: the carried dialog is the rebuilt one.
    const before = dialogBeforeCompaction(trailing.compaction, () => dialogAtEnd(execution));
    const report = checkRebuild(resume.messages, {
      input: run.input,
      card: trailing.card,
      before,
      relaxed: false,
      tailMaxBytes: ctx.limits.tailMaxBytes,
    });
    for (const violation of report.violations) failures.push(`${where}: resume.messages after compaction: ${violation}`);
  } else {
    const dialog = dialogAtEnd(execution);
    const difference = dialog ? dialogDifference(resume.messages, dialog, elidedAtEnd(execution)) : null;
    if (difference) failures.push(`${where}: resume.messages is not the dialog as it stood: ${difference}`);
  }

  const counters = expectedCounters(execution);
  for (const [name, value] of Object.entries(counters) as [keyof RunCounters, number][]) {
    const actual = resume.counters[name];
    if (actual !== value) {
      failures.push(`${where}: counters.${name} is ${typeof actual === 'number' ? bytes(actual) : actual}, expected ${bytes(value)}`);
    }
  }

  const head = expectedHead(run, execution);
  if (resume.journal.nextSeq !== head.nextSeq || resume.journal.headHash !== head.headHash) {
    failures.push(
      `${where}: journal head is seq ${resume.journal.nextSeq} hash ${String(resume.journal.headHash).slice(0, 12)}, expected seq ${head.nextSeq} hash ${head.headHash.slice(0, 12)} (the last journal event)`,
    );
  }
  return failures;
}

export const canCarryOver: HistoryInvariant = {
  id: 'can.carry-over',
  appliesTo: 'kernel',
  description: 'the new execution resumes the dialog, counters and journal chain exactly',
  check(run, ctx) {
    const failures: string[] = [];
    const notes: string[] = [];
    let exercised = false;
    run.executions.forEach((execution, index) => {
      const end = execution.end;
      if (end?.kind !== 'continued-as-new' || end.event.attrs.kind !== 'continued-as-new') return;
      exercised = true;
      const where = `${run.at(execution, end.event.id)}: ContinueAsNew`;
      const carried = end.event.attrs.input;
      if ('unreadable' in carried) {
        failures.push(`${where}: ${carried.unreadable}`);
        return;
      }
      const found = carryOverFailures(run, ctx, execution, carried, where);
      failures.push(...found);
      const next = run.executions[index + 1];
      if (next && (next.input.fixedHash !== carried.fixedHash || !sameResume(next.input, carried))) {
        failures.push(`${where}: execution ${next.number} did not start with the input the ContinueAsNew carried`);
      }
      if (found.length === 0) {
        const calls = execution.activities.filter((a) => callRequest(a)).length;
        notes.push(`${where}: carried ${carried.resume?.messages.length} messages after ${calls} call_model`);
      }
    });
    if (!exercised) notes.push('no ContinueAsNew');
    return judge(this.id, failures, notes, exercised);
  },
};

function sameResume(a: RunInputSummary, b: RunInputSummary): boolean {
  const x = a.resume;
  const y = b.resume;
  if (!x || !y) return x === y;
  return (
    x.messages.length === y.messages.length &&
    x.messages.every((m, i) => m.hash === y.messages[i]?.hash) &&
    canonicalJson(x.counters) === canonicalJson(y.counters) &&
    x.journal.nextSeq === y.journal.nextSeq &&
    x.journal.headHash === y.journal.headHash
  );
}
