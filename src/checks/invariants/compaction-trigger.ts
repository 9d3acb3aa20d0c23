import { acceptedAt, boundaryBytes, turnDialog, turnLabel } from '../run/compactions.ts';
import { dialogAtEnd } from '../run/dialog.ts';
import { providerCompactions } from '../run/provider-compaction.ts';
import { type Activity, callRequest, type Execution, gateOpenAt } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, judge } from '../verdict.ts';

export const compactionTrigger: HistoryInvariant = {
  id: 'compaction.trigger',
  appliesTo: 'kernel',
  description: 'compaction starts at the first boundary where the request passes the trigger, not before',
  check(run, ctx) {
    if (run.mapping.activities.compactContext === null) {
      return judge(this.id, [], ['the mapping names no compaction activity: the workflow has no compaction to trigger'], false);
    }
    const trigger = ctx.limits.compactionTriggerBytes;
    const failures: string[] = [];
    const notes: string[] = [];
    let exercised = false;
    let largest = 0;
    let gated = false;
    const judgeCompactions = (
      execution: Execution,
      compactions: Activity[],
      envelope: number,
      label: string,
      fallback: () => ReturnType<typeof dialogAtEnd>,
    ) => {
      for (const compaction of compactions) {
        const where = `${run.at(execution, compaction.scheduled.id)}: compaction at ${label}`;
        if (!gateOpenAt(execution, compaction.scheduled.id, ctx.gateOpens)) {
          failures.push(`${where} scheduled before the gate ${run.mapping.patchId} opened`);
          continue;
        }
        exercised = true;
        const size = boundaryBytes(compaction, envelope, fallback);
        if (size === null) notes.push(`${where}: the request at the boundary cannot be established`);
        else if (size <= trigger) failures.push(`${where} when the request was ${bytes(size)} bytes <= trigger ${bytes(trigger)}`);
      }
    };
    for (const execution of run.executions) {
      gated ||= execution.gateMarker !== null;
      let envelope = 0;
      for (const turn of execution.turns) {
        const first = turn.calls[0] as Activity;
        const request = callRequest(first);
        if (!request) {
          notes.push(`${run.at(execution, first.scheduled.id)}: call_model input unreadable, ${turnLabel(turn)} not judged`);
          continue;
        }
        envelope = request.bytes - request.messagesBytes;
        largest = Math.max(largest, request.bytes);
        if (turn.compactions.length > 0) {
          judgeCompactions(execution, turn.compactions, envelope, turnLabel(turn), turnDialog(run, turn));
        } else if (gateOpenAt(execution, first.scheduled.id, ctx.gateOpens) && request.bytes > trigger) {
          exercised = true;
          failures.push(
            `${run.at(execution, first.scheduled.id)}: call_model ${turnLabel(turn)} request ${bytes(request.bytes)} bytes > trigger ${bytes(trigger)} with no compaction attempt before it`,
          );
        }
      }
      judgeCompactions(execution, execution.trailingCompactions, envelope, 'the end of the execution', () => dialogAtEnd(execution));
    }
    if (!exercised)
      notes.push(
        gated
          ? `requests never passed the trigger ${bytes(trigger)} (largest ${bytes(largest)} bytes)`
          : `the gate ${run.mapping.patchId} never opened`,
      );
    const byProvider = exercised ? 0 : providerCompactions(run);
    if (byProvider > 0)
      notes.unshift(`the provider compacts, not the kernel: ${byProvider} compaction item${byProvider === 1 ? '' : 's'} in the requests`);
    const accepted = run.executions.flatMap((e) => e.turns).filter((t) => acceptedAt(run, t.compactions)).length;
    if (exercised) notes.push(`${accepted} accepted compactions; largest request ${bytes(largest)} bytes (trigger ${bytes(trigger)})`);
    return judge(this.id, failures, notes, exercised);
  },
};
