import { type HistoryInvariant, judge } from '../verdict.ts';

const HISTORY_LIMIT_REASON = /history (size|count) exceeds limit/i;

export const historyNoTermination: HistoryInvariant = {
  id: 'history.no-termination',
  description: 'no termination by the history service (size or count)',
  check(run) {
    const failures: string[] = [];
    const notes: string[] = [];
    for (const execution of run.executions) {
      const end = execution.end;
      if (end?.event.attrs.kind !== 'workflow-closed' || end.kind !== 'terminated') continue;
      const { reason = '', identity = '' } = end.event.attrs;
      const line = `${run.at(execution, end.event.id)}: WorkflowExecutionTerminated by "${identity}": "${reason}"`;
      if (identity === 'history-service' || HISTORY_LIMIT_REASON.test(reason)) failures.push(line);
      else notes.push(`${line} (not the history service)`);
    }
    if (failures.length + notes.length === 0) notes.push('no execution was terminated');
    return judge(this.id, failures, notes, true);
  },
};
