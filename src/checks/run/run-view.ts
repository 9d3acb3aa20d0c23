/**
 * One run as the checks see it: its executions in ContinueAsNew order, each with its activities
 * (scheduled event joined to the event that closed it), its turns (call_model activities grouped
 * by the kernel's turn number, with the compactions scheduled at the boundary before them) and
 * the journal written by completed journal.append activities.
 */

import { readRunMarker } from '../../contract/run-marker.ts';
import { HistoryLoadError } from '../history/errors.ts';
import type {
  ActivityInput,
  ActivityOutcome,
  ActivityResult,
  FailureSummary,
  HistoryEvent,
  JournalEntry,
  LoadedHistory,
  RequestSummary,
  RunInputSummary,
  WorkflowOutcome,
} from '../history/model.ts';
import type { KernelMapping } from '../mapping.ts';
import { orderChain } from './chain.ts';

export interface Activity {
  execution: Execution;
  scheduled: HistoryEvent;
  type: string;
  input: ActivityInput;
  closed?: HistoryEvent;
  /** The attempt its ActivityTaskStarted names (the server writes the last attempt's only). */
  attempt?: number;
  /** The failure of the attempt before the last, when it was retried. */
  lastFailure?: FailureSummary;
  outcome?: ActivityOutcome;
  result?: ActivityResult;
  failure?: FailureSummary;
}

export interface Turn {
  execution: Execution;
  /** Position among the execution's turns (0 for its first). */
  index: number;
  /** The kernel's turn number, when the call_model input names it. */
  number?: number;
  /** call_model activities of this turn, in order (more than one when the kernel re-sent it). */
  calls: Activity[];
  /** compact_context activities scheduled at the boundary before this turn. */
  compactions: Activity[];
}

export interface Execution {
  /** 1-based, in ContinueAsNew order. */
  number: number;
  history: LoadedHistory;
  input: RunInputSummary;
  activities: Activity[];
  turns: Turn[];
  /** compact_context activities scheduled after the last call_model. */
  trailingCompactions: Activity[];
  /** The run's journal events written by this execution's activities, in order. */
  journal: JournaledEvent[];
  /** The event that closed the execution, and how; null while it is open. */
  end: { event: HistoryEvent; kind: 'continued-as-new' | WorkflowOutcome } | null;
  /**
   * Where the compaction gate's patch marker was recorded: the WorkflowTaskCompleted id before
   * it (the commands of that task come after it); 0 when the kernel has no gate; null when the
   * execution never recorded the marker.
   */
  gateMarker: number | null;
}

export interface JournaledEvent extends JournalEntry {
  activity: Activity;
}

/**
 * Whether the mapping finds the kernel's mechanism in the run (its workflow type and RunInput):
 * without it only the invariants of any workflow judge the run, and the others say why not.
 */
export type Mechanism = { found: true } | { found: false; workflowType: string; reason: string };

export interface RunView {
  mapping: KernelMapping;
  executions: Execution[];
  mechanism: Mechanism;
  /**
   * The run's input (its first execution's). Another workflow's holds nothing of the contract but
   * its name (`runId`: the workflow id, else the first run id, else the source).
   */
  input: RunInputSummary;
  /**
   * Journal events in run order, from journal.append activities that completed or were still
   * pending when their execution closed (their events may have been written). Events of failed
   * appends are left out: the kernel sends them again.
   */
  journal: JournaledEvent[];
  /** Formats an event reference for evidence ("event 812", or "execution 2 event 812"). */
  at(execution: Execution, eventId: number): string;
}

export function callRequest(activity: Activity): RequestSummary | undefined {
  return activity.input.kind === 'call-model' ? activity.input.request : undefined;
}

/**
 * Whether the gate is open at `eventId`. The kernel asks the gate lazily (only where the gated
 * and ungated paths differ), so the marker shows where it was first asked, not where the new code
 * started: by default an execution that records the marker is gated throughout
 * (`with-execution`); `at-marker` opens it at the marker, for histories where a newer binary took
 * over in the middle of an execution.
 */
export function gateOpenAt(execution: Execution, eventId: number, mode: GateMode): boolean {
  if (execution.gateMarker === null) return false;
  return mode === 'with-execution' || eventId > execution.gateMarker;
}

export type GateMode = 'with-execution' | 'at-marker';

/** The mapping's gate marker for its patch id; a Go `Version` marker opens it at version 1 or more. */
function opensGate(attrs: HistoryEvent['attrs'], mapping: KernelMapping): boolean {
  if (attrs.kind !== 'marker' || attrs.name !== mapping.gateMarker || attrs.patchId !== mapping.patchId) return false;
  return attrs.version === undefined || attrs.version >= 1;
}

function markerPosition(events: readonly HistoryEvent[], mapping: KernelMapping): number | null {
  if (mapping.patchId === null) return 0;
  let lastTaskCompleted = 0;
  for (const event of events) {
    if (event.type === 'WorkflowTaskCompleted') lastTaskCompleted = event.id;
    // Commands of a workflow task follow its WorkflowTaskCompleted: the gate covers all of them.
    if (opensGate(event.attrs, mapping)) return lastTaskCompleted;
  }
  return null;
}

function startOf(history: LoadedHistory): Extract<HistoryEvent['attrs'], { kind: 'workflow-started' }> {
  const first = history.events[0]?.attrs;
  if (first?.kind !== 'workflow-started') throw new Error(`${history.source}: not a loaded history`);
  return first;
}

/** What names another workflow's run, in place of longrun's run id. */
function foreignInput(history: LoadedHistory): RunInputSummary {
  const start = startOf(history);
  const name = start.workflowId ?? start.firstRunId ?? start.runId ?? history.source;
  return {
    runId: name,
    systemPrompt: '',
    userRequest: '',
    maxTurns: 0,
    limits: {},
    fixedHash: '',
    problem: 'not a RunInput of the contract',
  };
}

/**
 * An agent started with an input of its own forwards the user's request, and with it the run
 * marker longrun ends it with: the run is then named by longrun's run id, not its workflow id.
 */
function nameByRunMarker(executions: readonly Execution[]): void {
  const request = executions[0]?.turns[0]?.calls[0]?.input;
  if (request?.kind !== 'call-model') return;
  const user = request.request.messages.find((m) => m.role === 'user' && m.text !== undefined);
  const runId = user?.text === undefined ? null : readRunMarker(user.text);
  if (runId === null) return;
  for (const execution of executions) execution.input = { ...execution.input, runId, userRequest: user?.text ?? '' };
}

function buildExecution(history: LoadedHistory, number: number, input: RunInputSummary): Execution {
  const execution: Execution = {
    number,
    history,
    input,
    activities: [],
    turns: [],
    trailingCompactions: [],
    journal: [],
    end: null,
    gateMarker: markerPosition(history.events, history.mapping),
  };
  const byScheduledId = new Map<number, Activity>();
  const { activities } = history.mapping;
  let pendingCompactions: Activity[] = [];
  for (const event of history.events) {
    const { attrs } = event;
    if (attrs.kind === 'activity-scheduled') {
      const activity: Activity = { execution, scheduled: event, type: attrs.activityType, input: attrs.input };
      execution.activities.push(activity);
      byScheduledId.set(event.id, activity);
      if (attrs.activityType === activities.compactContext) pendingCompactions.push(activity);
      if (attrs.activityType === activities.callModel) {
        const turnNumber = attrs.input.kind === 'call-model' ? attrs.input.turn : undefined;
        const last = execution.turns.at(-1);
        if (last && pendingCompactions.length === 0 && turnNumber !== undefined && last.number === turnNumber) {
          last.calls.push(activity);
        } else {
          execution.turns.push({
            execution,
            index: execution.turns.length,
            number: turnNumber,
            calls: [activity],
            compactions: pendingCompactions,
          });
          pendingCompactions = [];
        }
      }
    } else if (attrs.kind === 'activity-started') {
      const activity = byScheduledId.get(attrs.scheduledEventId);
      if (activity && attrs.attempt !== undefined) activity.attempt = attrs.attempt;
      if (activity && attrs.lastFailure) activity.lastFailure = attrs.lastFailure;
    } else if (attrs.kind === 'activity-closed') {
      const activity = byScheduledId.get(attrs.scheduledEventId);
      if (activity) {
        activity.closed = event;
        activity.outcome = attrs.outcome;
        activity.result = attrs.result;
        activity.failure = attrs.failure;
      }
    } else if (attrs.kind === 'continued-as-new') {
      execution.end = { event, kind: 'continued-as-new' };
    } else if (attrs.kind === 'workflow-closed') {
      execution.end = { event, kind: attrs.outcome };
    }
  }
  execution.trailingCompactions = pendingCompactions;
  return execution;
}

export function buildRunView(histories: readonly LoadedHistory[]): RunView {
  const ordered = orderChain(histories);
  const mapping = ordered[0]?.mapping;
  if (!mapping) throw new Error('no histories to check');
  const mismatch = ordered.find((h) => h.mapping !== mapping);
  if (mismatch) throw new Error(`${mismatch.source}: loaded with another kernel mapping than ${ordered[0]?.source}`);
  const start = startOf(ordered[0] as LoadedHistory);
  const mechanism: Mechanism =
    'unreadable' in start.input ? { found: false, workflowType: start.workflowType, reason: start.input.unreadable } : { found: true };
  const executions = ordered.map((history, index) => {
    const { input } = startOf(history);
    if (!('unreadable' in input)) return buildExecution(history, index + 1, input);
    // An input offloaded to External Storage and not read stands in for itself: the checks that read it say they could not.
    const offloaded = history.references?.some((reference) => reference.eventId === 1 && reference.resolution !== 'resolved');
    if (mechanism.found && offloaded)
      return buildExecution(history, index + 1, startOf(ordered[0] as LoadedHistory).input as RunInputSummary);
    if (mechanism.found) throw new HistoryLoadError(history.source, `execution ${index + 1}: ${input.unreadable}, unlike execution 1's`);
    return buildExecution(history, index + 1, foreignInput(ordered[0] as LoadedHistory));
  });
  if (!mechanism.found) nameByRunMarker(executions);
  const journal: JournaledEvent[] = [];
  for (const execution of executions) {
    for (const activity of execution.activities) {
      if (activity.input.kind !== 'journal-append' || (activity.outcome ?? 'completed') !== 'completed') continue;
      for (const entry of activity.input.entries) {
        const journaled = { ...entry, activity };
        journal.push(journaled);
        execution.journal.push(journaled);
      }
    }
  }
  const multiple = executions.length > 1;
  return {
    mapping,
    executions,
    mechanism,
    input: (executions[0] as Execution).input,
    journal,
    at: (execution, eventId) => (multiple ? `execution ${execution.number} event ${eventId}` : `event ${eventId}`),
  };
}
