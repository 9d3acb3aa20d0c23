/**
 * Turns raw history events (any of the three forms) into the normalized model, one event at a
 * time, so that a history streamed from disk never has to be held whole. Stateful: a completed
 * activity's result is decoded according to the type its scheduled event named.
 */
import type { KernelMapping } from '../mapping.ts';
import { deploymentStampOf } from './deployment-stamp.ts';
import { HistoryLoadError } from './errors.ts';
import { lookUp, type ResolvedReference, referencesIn, type StoredPayloads } from './external-storage.ts';
import type {
  ActivityOutcome,
  EventAttributes,
  FailureSummary,
  HistoryEvent,
  LoadedHistory,
  RunInputSummary,
  UninterpretedEvent,
  Unreadable,
  WorkflowOutcome,
} from './model.ts';
import {
  decodePayload,
  decodePayloads,
  isShorthandPayloads,
  payloadFields,
  payloadList,
  payloadSize,
  replacePayloads,
} from './payloads.ts';
import {
  continueAsNewInitiator,
  eventTypeName,
  isRecord,
  toBuffer,
  toDurationMs,
  toInt,
  toIsoTime,
  toText,
  workflowTaskFailedCause,
} from './proto-values.ts';
import { activityRole, ContractReader } from './summarize.ts';

type Raw = Record<string, unknown>;

const ACTIVITY_OUTCOMES: Record<string, ActivityOutcome> = {
  ActivityTaskCompleted: 'completed',
  ActivityTaskFailed: 'failed',
  ActivityTaskTimedOut: 'timed-out',
  ActivityTaskCanceled: 'canceled',
};
const WORKFLOW_OUTCOMES: Record<string, WorkflowOutcome> = {
  WorkflowExecutionCompleted: 'completed',
  WorkflowExecutionFailed: 'failed',
  WorkflowExecutionTimedOut: 'timed-out',
  WorkflowExecutionCanceled: 'canceled',
  WorkflowExecutionTerminated: 'terminated',
};
const WORKFLOW_TASK_PHASES = {
  WorkflowTaskScheduled: 'scheduled',
  WorkflowTaskStarted: 'started',
  WorkflowTaskCompleted: 'completed',
  WorkflowTaskTimedOut: 'timed-out',
} as const;
const CHILD_CLOSED = new Set([
  'StartChildWorkflowExecutionFailed',
  'ChildWorkflowExecutionCompleted',
  'ChildWorkflowExecutionFailed',
  'ChildWorkflowExecutionCanceled',
  'ChildWorkflowExecutionTimedOut',
  'ChildWorkflowExecutionTerminated',
]);
const EXTERNAL_INITIATED = new Set(['SignalExternalWorkflowExecutionInitiated', 'RequestCancelExternalWorkflowExecutionInitiated']);
const EXTERNAL_CLOSED = new Set([
  'SignalExternalWorkflowExecutionFailed',
  'ExternalWorkflowExecutionSignaled',
  'RequestCancelExternalWorkflowExecutionFailed',
  'ExternalWorkflowExecutionCancelRequested',
]);
/** Events whose payloads the checks read, besides the activities of the mapping. */
const READ_EVENTS = new Set([
  'WorkflowExecutionStarted',
  'WorkflowExecutionContinuedAsNew',
  'WorkflowExecutionCompleted',
  'WorkflowExecutionFailed',
  'WorkflowTaskFailed',
  'MarkerRecorded',
]);
/** Fields whose payloads are decoded; shorthand (value) payloads there cannot be measured. */
const DECODED_FIELDS = ['input', 'result'];

function attributesKey(type: string): string {
  return `${type.charAt(0).toLowerCase()}${type.slice(1)}EventAttributes`;
}

function nameOf(value: unknown): string {
  return isRecord(value) ? (toText(value.name) ?? '') : '';
}

function summarizeFailure(value: unknown): FailureSummary | undefined {
  if (!isRecord(value)) return undefined;
  const messages: string[] = [];
  const types: string[] = [];
  const activityTypes: string[] = [];
  let details: unknown[] | undefined;
  for (let failure: unknown = value, depth = 0; isRecord(failure) && depth < 20; failure = failure.cause, depth++) {
    if (typeof failure.message === 'string' && failure.message !== '') messages.push(failure.message);
    const app = failure.applicationFailureInfo;
    if (isRecord(app) && typeof app.type === 'string' && app.type !== '') types.push(app.type);
    if (isRecord(app) && details === undefined) details = decodedDetails(app.details);
    const activity = failure.activityFailureInfo;
    if (isRecord(activity)) activityTypes.push(nameOf(activity.activityType));
  }
  const text = messages.join(' <- ').replace(/\s+/g, ' ').slice(0, 1000);
  return { text, types, activityTypes, ...(details ? { details } : {}) };
}

/** An application failure's details, decoded; undefined when it has none or one is not json/plain. */
function decodedDetails(payloads: unknown): unknown[] | undefined {
  const list = payloadList(payloads);
  if (list.length === 0) return undefined;
  try {
    return list.map(decodePayload);
  } catch {
    return undefined;
  }
}

/**
 * The patch a marker records: TS `patched()` (core_patch: `patch-data` {id}) or Go
 * `GetVersion` or Java `getVersion` (Version: `change-id` or `changeId`, and `version`, each a json/plain Payloads).
 */
function markerPatch(name: string, details: unknown): { patchId?: string; version?: number } {
  if (!isRecord(details)) return {};
  const first = (key: string): unknown => payloadList(details[key])[0];
  try {
    if (name === 'core_patch') {
      const data = first('patch-data');
      if (data !== undefined) return { patchId: toText((decodePayload(data) as Raw | null)?.id) };
      const legacy = first('patch_id');
      return { patchId: isRecord(legacy) ? toBuffer(legacy.data)?.toString('utf8') : undefined };
    }
    if (name === 'Version') {
      // Go writes the change id under "change-id", Java under "changeId".
      const version = decodePayload(first('version'));
      const changeId = first('change-id') ?? first('changeId');
      return { patchId: toText(decodePayload(changeId)), ...(typeof version === 'number' ? { version } : {}) };
    }
  } catch {
    // A marker we cannot read is not a patch marker.
  }
  return {};
}

/**
 * Events in the order the server wrote them (1, 2, 3...), or newest first (as a reverse history
 * read returns them): then the activity type of each scheduled event must be known beforehand
 * (`scheduledTypes`, by scheduled event id), since a result comes before the event that scheduled it.
 */
export type EventOrder = { order: 'ascending' } | { order: 'descending'; scheduledTypes: Map<number, string> };

/** The eventId of a raw event, when it has one. */
export function rawEventId(raw: unknown): number | undefined {
  return isRecord(raw) ? toInt(raw.eventId) : undefined;
}

/** The scheduled event a raw activity result (completed, failed, timed out or canceled) names, when it is one. */
export function resultScheduledEventId(raw: unknown): number | undefined {
  const type = isRecord(raw) ? eventTypeName(raw.eventType) : undefined;
  if (type === undefined || ACTIVITY_OUTCOMES[type] === undefined) return undefined;
  const attributes = (raw as Raw)[attributesKey(type)];
  return isRecord(attributes) ? (toInt(attributes.scheduledEventId) ?? 0) : undefined;
}

/** The activity type a raw event schedules, when it is an ActivityTaskScheduled. */
export function scheduledActivityType(raw: unknown): string | undefined {
  if (!isRecord(raw) || eventTypeName(raw.eventType) !== 'ActivityTaskScheduled') return undefined;
  const attributes = raw[attributesKey('ActivityTaskScheduled')];
  return isRecord(attributes) ? nameOf(attributes.activityType) : undefined;
}

/** An event type the checks do not know, named as the history gives it. */
function givenTypeName(value: unknown): string {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return `EventType ${value}`;
  return value === undefined ? '(no eventType)' : JSON.stringify(value);
}

/** Marked ignorable by the server: proto3 JSON's and the SDK objects' spelling, or the proto field's. */
function workerMayIgnore(raw: Raw): boolean {
  return raw.workerMayIgnore === true || raw.worker_may_ignore === true;
}

function startedBy(initiator: unknown): { startedBy?: 'retry' | 'cron' } {
  const constant = continueAsNewInitiator(initiator);
  return constant === 'RETRY' ? { startedBy: 'retry' } : constant === 'CRON_SCHEDULE' ? { startedBy: 'cron' } : {};
}

export class HistoryNormalizer {
  private readonly events: HistoryEvent[] = [];
  private readonly uninterpreted: UninterpretedEvent[] = [];
  private readonly references: ResolvedReference[] = [];
  private readonly reader: ContractReader;
  /** Activity type of each scheduled event, to decode its result (newest first: the caller's, which it fills ahead). */
  private readonly scheduledTypes: Map<number, string>;

  constructor(
    private readonly source: string,
    private readonly mapping: KernelMapping,
    private readonly order: EventOrder = { order: 'ascending' },
    /** The stored payloads of the history's External Storage references; absent when none were given. */
    private readonly stored?: StoredPayloads,
  ) {
    this.reader = new ContractReader(mapping);
    this.scheduledTypes = order.order === 'descending' ? order.scheduledTypes : new Map();
  }

  add(raw: unknown): void {
    const position = this.events.length + 1;
    if (!isRecord(raw)) this.fail(`event #${position} is not an object`);
    const id = toInt(raw.eventId);
    if (id === undefined) this.fail(`event #${position} has no eventId`);
    const previous = this.events.at(-1)?.id;
    if (this.order.order === 'descending') {
      if (previous !== undefined && id !== previous - 1) {
        this.fail(`event ${id} follows event ${previous} newest first (events missing or out of order)`);
      }
    } else if (id !== (previous ?? 0) + 1) {
      this.fail(
        previous === undefined
          ? `history starts at event ${id}, not 1 (events missing)`
          : `event ${id} follows event ${previous} (events missing or out of order)`,
      );
    }
    const known = eventTypeName(raw.eventType);
    const ignorable = workerMayIgnore(raw);
    if (known === undefined || known === 'Unspecified' || ignorable) {
      // Read no further: a worker skips an event marked ignorable, and a type a newer server added
      // says nothing the checks could read; the events around it are judged as they are.
      const type = known ?? givenTypeName(raw.eventType);
      this.uninterpreted.push({ id, type, workerMayIgnore: ignorable });
      this.events.push({ id, type, time: toIsoTime(raw.eventTime), payloads: [], attrs: { kind: 'other' } });
      return;
    }
    const type = known;
    const attributes = raw[attributesKey(type)];
    if (!isRecord(attributes)) this.fail(`event ${id} (${type}) has no ${attributesKey(type)}`);
    for (const field of DECODED_FIELDS) {
      if (isShorthandPayloads(attributes[field])) {
        this.fail(`event ${id} (${type}) has shorthand payloads in ${field}; export full payloads (base64 data)`);
      }
    }
    this.events.push({
      id,
      type,
      time: toIsoTime(raw.eventTime),
      payloads: payloadFields(attributes),
      attrs: this.attributes(id, type, this.resolve(id, type, attributes)),
    });
  }

  /**
   * The attributes as the checks read them: each External Storage reference replaced by its
   * stored payload where one was given (the sizes stay the history's), each reference recorded.
   */
  private resolve(id: number, type: string, attributes: Raw): Raw {
    const found = referencesIn(id, type, attributes);
    if (found.length === 0) return attributes;
    const activityType =
      type === 'ActivityTaskScheduled'
        ? nameOf(attributes.activityType)
        : ACTIVITY_OUTCOMES[type]
          ? this.scheduledTypes.get(toInt(attributes.scheduledEventId) ?? 0)
          : undefined;
    const read = activityType !== undefined ? activityRole(this.mapping, activityType) !== 'other' : READ_EVENTS.has(type);
    const replacements = new Map<unknown, unknown>();
    for (const { reference, payload } of found) {
      const stored = lookUp(this.stored, reference);
      const resolved = typeof stored === 'object';
      if (resolved) replacements.set(payload, stored);
      this.references.push({
        ...reference,
        ...(activityType ? { activityType } : {}),
        resolution: resolved ? 'resolved' : stored,
        ...(resolved ? { storedBytes: payloadSize(stored) } : {}),
        read,
      });
    }
    return replacements.size > 0 ? replacePayloads(attributes, (payload) => replacements.get(payload)) : attributes;
  }

  finish(): LoadedHistory {
    if (this.order.order === 'descending') {
      const oldest = this.events.at(-1);
      if (oldest && oldest.id !== 1) this.fail(`history newest first ends at event ${oldest.id}, not 1 (events missing)`);
      this.events.reverse();
    }
    const first = this.events[0];
    if (!first) this.fail('history has no events');
    if (first.attrs.kind !== 'workflow-started') this.fail(`event 1 is ${first.type}, not WorkflowExecutionStarted`);
    if (this.order.order === 'descending') this.uninterpreted.reverse();
    const uninterpreted = this.uninterpreted.length > 0 ? { uninterpreted: this.uninterpreted } : {};
    // By event, field and index as `listReferences` lists them: the same whichever order the history came in.
    this.references.sort((a, b) => a.eventId - b.eventId || a.field.localeCompare(b.field) || a.index - b.index);
    const references = this.references.length > 0 ? { references: this.references } : {};
    return { source: this.source, mapping: this.mapping, events: this.events, ...uninterpreted, ...references };
  }

  private fail(problem: string): never {
    throw new HistoryLoadError(this.source, problem);
  }

  private attributes(id: number, type: string, a: Raw): EventAttributes {
    const ref = (key: string): number => toInt(a[key]) ?? 0;
    if (type === 'WorkflowExecutionStarted') {
      const workflowType = nameOf(a.workflowType);
      return {
        kind: 'workflow-started',
        workflowType,
        input: this.runInput(workflowType, a.input),
        workflowId: toText(a.workflowId) || undefined,
        taskQueue: (isRecord(a.taskQueue) && toText(a.taskQueue.name)) || undefined,
        runId: toText(a.originalExecutionRunId) || undefined,
        firstRunId: toText(a.firstExecutionRunId) || undefined,
        continuedFromRunId: toText(a.continuedExecutionRunId) || undefined,
        ...startedBy(a.initiator),
        runTimeoutMs: toDurationMs(a.workflowRunTimeout) || toDurationMs(a.workflowExecutionTimeout) || 0,
      };
    }
    if (type in WORKFLOW_TASK_PHASES) {
      const phase = WORKFLOW_TASK_PHASES[type as keyof typeof WORKFLOW_TASK_PHASES];
      if (phase === 'completed') return { kind: 'workflow-task', phase, attempt: toInt(a.attempt), ...deploymentStampOf(a) };
      if (phase !== 'started') return { kind: 'workflow-task', phase, attempt: toInt(a.attempt) };
      return {
        kind: 'workflow-task',
        phase,
        attempt: toInt(a.attempt),
        suggestContinueAsNew: a.suggestContinueAsNew === true,
        historySizeBytes: toInt(a.historySizeBytes) ?? 0, // proto3: absent is zero (SDK objects leave defaults out)
        ...(a.targetWorkerDeploymentVersionChanged === true ? { targetVersionChanged: true } : {}),
      };
    }
    if (type === 'WorkflowTaskFailed') {
      return { kind: 'workflow-task-failed', cause: workflowTaskFailedCause(a.cause), failure: summarizeFailure(a.failure) };
    }
    if (type === 'ActivityTaskScheduled') return this.activityScheduled(id, a);
    if (type === 'ActivityTaskStarted') {
      const lastFailure = summarizeFailure(a.lastFailure);
      return {
        kind: 'activity-started',
        scheduledEventId: ref('scheduledEventId'),
        attempt: toInt(a.attempt),
        ...(lastFailure ? { lastFailure } : {}),
      };
    }
    if (type === 'ActivityTaskCancelRequested') {
      return { kind: 'activity-cancel-requested', scheduledEventId: ref('scheduledEventId') };
    }
    const activityOutcome = ACTIVITY_OUTCOMES[type];
    if (activityOutcome) return this.activityClosed(activityOutcome, ref('scheduledEventId'), a);
    if (type === 'TimerStarted') return { kind: 'timer-started', timerId: toText(a.timerId) ?? '' };
    if (type === 'TimerFired' || type === 'TimerCanceled') {
      return { kind: 'timer-closed', startedEventId: ref('startedEventId') };
    }
    if (type === 'StartChildWorkflowExecutionInitiated') {
      return { kind: 'child-initiated', workflowType: nameOf(a.workflowType) };
    }
    if (CHILD_CLOSED.has(type)) return { kind: 'child-closed', initiatedEventId: ref('initiatedEventId') };
    if (EXTERNAL_INITIATED.has(type)) return { kind: 'external-initiated' };
    if (EXTERNAL_CLOSED.has(type)) return { kind: 'external-closed', initiatedEventId: ref('initiatedEventId') };
    if (type === 'MarkerRecorded') {
      const name = toText(a.markerName) ?? '';
      return { kind: 'marker', name, ...markerPatch(name, a.details) };
    }
    if (type === 'WorkflowExecutionContinuedAsNew') {
      let input: Extract<EventAttributes, { kind: 'continued-as-new' }>['input'];
      try {
        input = this.reader.runInput(decodePayloads(a.input));
      } catch (error) {
        input = { unreadable: `ContinueAsNew input is not a RunInput (${(error as Error).message})` };
      }
      return { kind: 'continued-as-new', newRunId: toText(a.newExecutionRunId), input };
    }
    const workflowOutcome = WORKFLOW_OUTCOMES[type];
    if (workflowOutcome) {
      return {
        kind: 'workflow-closed',
        outcome: workflowOutcome,
        reason: toText(a.reason),
        identity: toText(a.identity),
        failure: summarizeFailure(a.failure),
        ...(workflowOutcome === 'completed' ? completionResult(a.result) : {}),
      };
    }
    return { kind: 'other' };
  }

  /** Another workflow's start is read, not refused: its input says why the mechanism is not there. */
  private runInput(workflowType: string, payloads: unknown): RunInputSummary | Unreadable {
    if (workflowType !== this.mapping.workflowType) {
      return { unreadable: `workflow type ${workflowType || '(none)'} is not the mapping's ${this.mapping.workflowType}` };
    }
    try {
      return this.reader.runInput(decodePayloads(payloads));
    } catch (error) {
      return { unreadable: `the workflow input is not a RunInput (${(error as Error).message})` };
    }
  }

  private activityScheduled(id: number, a: Raw): EventAttributes {
    const activityType = nameOf(a.activityType);
    this.scheduledTypes.set(id, activityType);
    const role = activityRole(this.mapping, activityType);
    let input: Extract<EventAttributes, { kind: 'activity-scheduled' }>['input'];
    try {
      input =
        role === 'other'
          ? { kind: 'other' }
          : (this.reader.inputFromBytes(role, payloadList(a.input)) ?? this.reader.activityInput(role, decodePayloads(a.input)));
    } catch (error) {
      input = { kind: 'unreadable', unreadable: `${activityType} input: ${(error as Error).message}` };
    }
    return {
      kind: 'activity-scheduled',
      activityType,
      activityId: toText(a.activityId) ?? '',
      input,
      maximumAttempts: (isRecord(a.retryPolicy) ? toInt(a.retryPolicy.maximumAttempts) : undefined) ?? 0,
      scheduleToCloseMs: toDurationMs(a.scheduleToCloseTimeout) ?? 0,
    };
  }

  private activityClosed(outcome: ActivityOutcome, scheduledEventId: number, a: Raw): EventAttributes {
    const activityType = this.scheduledTypes.get(scheduledEventId);
    if (activityType === undefined) this.fail(`activity result names scheduled event ${scheduledEventId}, which is not in the history`);
    if (outcome !== 'completed') {
      return { kind: 'activity-closed', scheduledEventId, outcome, failure: summarizeFailure(a.failure) };
    }
    const role = activityRole(this.mapping, activityType);
    let result: Extract<EventAttributes, { kind: 'activity-closed' }>['result'];
    try {
      result =
        role === 'other'
          ? { kind: 'other' }
          : (this.reader.resultFromBytes(role, payloadList(a.result)) ?? this.reader.activityResult(role, decodePayloads(a.result)));
    } catch (error) {
      result = { kind: 'unreadable', unreadable: `${activityType} result: ${(error as Error).message}` };
    }
    return { kind: 'activity-closed', scheduledEventId, outcome, result };
  }
}

/** The completed workflow's first result payload, when it is readable JSON: a kernel's RunResult is small. */
function completionResult(payloads: unknown): { result?: unknown } {
  try {
    const [result] = decodePayloads(payloads);
    return result === undefined ? {} : { result };
  } catch {
    return {};
  }
}
