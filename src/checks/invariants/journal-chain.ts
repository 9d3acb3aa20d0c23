import { GENESIS_HASH } from '../../contract/kernel-api.ts';
import { journalAccountFailures } from '../run/journal-account.ts';
import { journalFigureFailures } from '../run/journal-figures.ts';
import { turnContinuityFailures } from '../run/turn-continuity.ts';
import { type HistoryInvariant, judge } from '../verdict.ts';

const short = (hash: string): string => String(hash).slice(0, 12);

export const journalChain: HistoryInvariant = {
  id: 'journal.chain',
  appliesTo: 'kernel',
  description:
    "journal events form one unbroken chain across executions: run.started first, turns 1..N completed once each, run.completed last; the workflow's result says what run.completed says",
  check(run) {
    const turns = turnContinuityFailures(run);
    const failures: string[] = [
      ...turns.failures.map((failure) => `turn counter: ${failure}`),
      ...journalAccountFailures(run),
      ...journalFigureFailures(run),
    ];
    const notes: string[] = [];
    let seq = run.mapping.journalFirstSeq;
    let prevHash = GENESIS_HASH;
    for (const entry of run.journal) {
      const { event, activity } = entry;
      const where = `${run.at(activity.execution, activity.scheduled.id)}: journal ${event.type} seq ${event.seq}`;
      if (event.runId !== run.input.runId) failures.push(`${where} names run ${event.runId}, not ${run.input.runId}`);
      if (event.seq !== seq) failures.push(`${where}, expected seq ${seq}`);
      if (event.prevHash !== prevHash) {
        failures.push(`${where} prevHash ${short(event.prevHash)} is not the hash of the event before (${short(prevHash)})`);
      }
      seq = event.seq + 1;
      prevHash = entry.hash;
    }
    for (const execution of run.executions) {
      for (const activity of execution.activities) {
        if (activity.input.kind !== 'journal-append') continue;
        const where = run.at(execution, activity.scheduled.id);
        if (activity.outcome === undefined) notes.push(`${where}: journal.append still pending when the execution closed`);
        if (activity.outcome !== 'completed') {
          if (activity.outcome) notes.push(`${where}: journal.append ${activity.outcome}; its events are not in the chain`);
          continue;
        }
        const returned = activity.result?.kind === 'journal-append' ? activity.result.hashes : undefined;
        activity.input.entries.forEach((e, i) => {
          if (returned && returned[i] !== e.hash) {
            failures.push(
              `${where}: journal.append returned hash ${short(returned[i] ?? 'none')} for seq ${e.event.seq}; the event hashes to ${short(e.hash)}`,
            );
          }
        });
      }
    }
    if (turns.failures.length === 0 && turns.turns > 0) notes.push(`turn.completed for turns 1-${turns.turns}, each once`);
    if (run.journal.length > 0) notes.push(`${run.journal.length} journal events, head seq ${seq - 1} hash ${short(prevHash)}`);
    else notes.push('no journal events');
    return judge(this.id, failures, notes, run.journal.length > 0);
  },
};
