import { agentConversationTurns } from '../run/agent-conversations.ts';
import {
  acceptedAt,
  compactedEntryOf,
  dialogBeforeCompaction,
  elidedAround,
  requestElidedAt,
  turnDialog,
  turnLabel,
} from '../run/compactions.ts';
import { contiguityViolations } from '../run/contiguity.ts';
import { dialogDifference, knownWhole } from '../run/dialog.ts';
import { placeholderProblems } from '../run/placeholders.ts';
import { providerCompactedDialog, providerCompactions } from '../run/provider-compaction.ts';
import { checkRebuild } from '../run/rebuild.ts';
import { type Activity, callRequest, type RunView } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, judge } from '../verdict.ts';

/**
 * What context.compacted says it kept and dropped against what the rebuild did: kept the tail's
 * groups, dropped the rest of the groups the compaction was sent. Judged when both are numbers.
 */
function countsProblem(run: RunView, tailGroups: number, compaction: Activity): string | null {
  const data = compactedEntryOf(run, compaction)?.event.data;
  const sent = compaction.input.kind === 'compact-context' ? compaction.input.messages : undefined;
  if (typeof data?.kept !== 'number' || typeof data.dropped !== 'number' || !sent) return null;
  const dropped = sent.filter((m) => m.role === 'assistant').length - tailGroups;
  if (data.kept === tailGroups && data.dropped === dropped) return null;
  return `context.compacted says kept ${data.kept}, dropped ${data.dropped}; the rebuild kept ${tailGroups} turn groups and displaced ${dropped}`;
}

/**
 * Every request keeps tool contiguity. The first request after an accepted compaction is the
 * rebuilt dialog (run/rebuild.ts). Every other turn's first request is the dialog as it stood
 * (append-only: compaction is the only intended break of it).
 */
export const rebuildContract: HistoryInvariant = {
  id: 'rebuild.contract',
  appliesTo: 'agent',
  description:
    'system prompt and user request verbatim; one framed card message; tail of 2-8 whole groups <= tail max; tool contiguity intact; an elided item leaves a text that says what it was',
  check(run, ctx) {
    const failures: string[] = [];
    const notes: string[] = [];
    let requests = 0;
    let rebuilds = 0;
    // Turns whose first request was held against the dialog as it stood: append-only, judged.
    let compared = 0;
    // An agent with an input of its own (a framework's): each turn held to the conversation it continues.
    const agentTurns = run.mechanism.found ? null : new Map(agentConversationTurns(run).map((judged) => [judged.turn, judged]));
    const read = { 'responses-items': 0, 'anthropic-messages': 0, 'pydantic-ai-messages': 0 };
    for (const execution of run.executions) {
      for (const turn of execution.turns) {
        const label = turnLabel(turn);
        for (const call of turn.calls) {
          const request = callRequest(call);
          const where = run.at(execution, call.scheduled.id);
          if (!request) {
            failures.push(`${where}: ${call.input.kind === 'unreadable' ? call.input.unreadable : 'call_model input unreadable'}`);
            continue;
          }
          requests++;
          if (request.format !== 'chat-completions') read[request.format]++;
          for (const violation of contiguityViolations(request.messages)) failures.push(`${where} (${label}): ${violation}`);
        }
        // The dialog at the boundary, established once for every rule below that needs it.
        const held = turnDialog(run, turn);
        // A compaction is sent that dialog, its items elided when it is past the blob limit.
        for (const compaction of turn.compactions) {
          const sent = compaction.input.kind === 'compact-context' ? compaction.input.messages : undefined;
          const dialog = sent && held();
          for (const problem of sent && dialog ? placeholderProblems(sent, dialog) : []) {
            failures.push(`${run.at(execution, compaction.scheduled.id)} (${label}), the compaction's input: ${problem}`);
          }
        }
        const first = turn.calls[0] as Activity;
        const request = callRequest(first);
        if (!request) continue;
        const where = `${run.at(execution, first.scheduled.id)} (${label})`;
        const relaxed = elidedAround(run, turn);
        const accepted = acceptedAt(run, turn.compactions);
        if (accepted) {
          rebuilds++;
          const report = checkRebuild(request.messages, {
            input: run.input,
            card: accepted.card,
            before: dialogBeforeCompaction(accepted.compaction, held),
            relaxed,
            tailMaxBytes: ctx.limits.tailMaxBytes,
          });
          const after = `first request after the compaction at ${run.at(execution, accepted.compaction.scheduled.id)}`;
          for (const violation of report.violations) failures.push(`${where}, ${after}: ${violation}`);
          const counts = countsProblem(run, report.tailGroups, accepted.compaction);
          if (counts) failures.push(`${where}, ${after}: ${counts}`);
          if (report.violations.length === 0) {
            notes.push(`${where}: rebuilt with ${report.tailGroups} turn groups, tail ${bytes(report.tailBytes)} bytes`);
          }
          continue;
        }
        if (agentTurns) {
          const judged = agentTurns.get(turn);
          if (judged?.continued) compared++;
          if (judged?.difference)
            failures.push(`${where}: the request does not continue its conversation as it stood: ${judged.difference}`);
          continue;
        }
        const before = held();
        // Where the provider compacted, the dialog it left: what the compaction item stands for dropped.
        const compacted = before && providerCompactedDialog(turn, request.messages, before);
        const dialog = compacted ?? before;
        if (dialog && turn.index > 0) compared++;
        const difference = dialog ? dialogDifference(request.messages, dialog, relaxed) : null;
        if (difference) {
          failures.push(
            compacted
              ? `${where}: the request is not the dialog the provider's compaction left (the system prompt, the compaction item, the previous answer and its tool results): ${difference}`
              : `${where}: the request is neither the dialog as it stood nor a rebuild after an accepted compaction: ${difference}`,
          );
          continue;
        }
        // What an elision left must say what it took (or at least not be empty).
        if (relaxed && dialog) for (const problem of placeholderProblems(request.messages, dialog)) failures.push(`${where}: ${problem}`);
        // A journaled elision relaxes the comparison above: it must have elided something, or a
        // kernel could journal one every turn and compare tool messages by call id alone.
        const elided = requestElidedAt(run, turn);
        if (elided && dialog && knownWhole(dialog) && dialogDifference(request.messages, dialog) === null) {
          const at = run.at(elided.activity.execution, elided.activity.scheduled.id);
          failures.push(`${where}: the journal says the request was elided (${at}), but it is the dialog as it stood, nothing elided`);
        }
      }
    }
    // With no model call at all there is nothing to judge: say which activity was looked for (a mapping may name another).
    if (requests === 0 && failures.length === 0) notes.unshift(`no ${run.mapping.activities.callModel} activity`);
    notes.push(`${requests} requests checked for tool contiguity; ${rebuilds} rebuilds`);
    const forms = {
      'responses-items': 'Responses API items',
      'anthropic-messages': 'Anthropic Messages content blocks',
      'pydantic-ai-messages': "Pydantic AI's messages",
    };
    for (const [format, count] of Object.entries(read) as [keyof typeof read, number][]) {
      if (count > 0) notes.push(`${count} requests read from ${forms[format]} into Chat messages; append-only between turns`);
    }
    // Without compaction (an agent framework's), the append-only dialog is all there is to judge.
    const withoutCompaction = run.mapping.activities.compactContext === null;
    if (withoutCompaction) notes.push(`${compared} turns held to the dialog as it stood (append-only; no compaction to rebuild after)`);
    const byProvider = rebuilds === 0 ? providerCompactions(run) : 0;
    if (byProvider > 0) {
      notes.unshift(
        `no card to rebuild around: the provider compacted ${byProvider === 1 ? 'once' : `${byProvider} times`} (compaction items in the requests); ${compared} turns held to the dialog as it stood, or as a compaction item left it (what it stands for dropped)`,
      );
    }
    return judge(this.id, failures, notes, rebuilds > 0 || (withoutCompaction && compared > 0));
  },
};
