import { historyLimitOf } from '../../contract/history-limits.ts';
import { type HistoryInvariant, judge } from '../verdict.ts';

export const historyNoTermination: HistoryInvariant = {
  id: 'history.no-termination',
  appliesTo: 'any-workflow',
  readsPayloads: false,
  description: 'no termination by the history service (size or count)',
  check(run) {
    const failures: string[] = [];
    const notes: string[] = [];
    for (const execution of run.executions) {
      const end = execution.end;
      if (end?.event.attrs.kind !== 'workflow-closed' || end.kind !== 'terminated') continue;
      const { reason = '', identity = '' } = end.event.attrs;
      const line = `${run.at(execution, end.event.id)}: WorkflowExecutionTerminated by "${identity}": "${reason}"`;
      if (identity === 'history-service' || historyLimitOf(reason)) failures.push(line);
      else notes.push(`${line} (not the history service)`);
    }
    if (failures.length + notes.length === 0) notes.push('no execution was terminated');
    return judge(this.id, failures, notes, true);
  },
};
