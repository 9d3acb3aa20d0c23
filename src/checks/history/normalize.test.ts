import { describe, expect, it } from 'vitest';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { AgentRunHistory } from '../testing/agent-run-history.ts';
import { HistoryBuilder, type JsonObject, jsonPayload, jsonPayloads } from '../testing/history-builder.ts';
import { payload as sdkPayload } from '../testing/sdk-histories.ts';
import { HistoryLoadError } from './errors.ts';
import { listReferences, REFERENCE_MESSAGE_TYPE, referenceKey, type StoredPayload, type StoredPayloads } from './external-storage.ts';
import type { EventAttributes, HistoryEvent, LoadedHistory } from './model.ts';
import { type EventOrder, HistoryNormalizer, rawEventId, resultScheduledEventId, scheduledActivityType } from './normalize.ts';
import { payloadFields, payloadSize } from './payloads.ts';

const SOURCE = 'run.json';

function normalize(events: readonly unknown[], order?: EventOrder, stored?: StoredPayloads): LoadedHistory {
  const normalizer = new HistoryNormalizer(SOURCE, DEFAULT_KERNEL_MAPPING, order, stored);
  for (const event of events) normalizer.add(event);
  return normalizer.finish();
}

/** The one-line problem a history is refused with, without its source. */
function refusal(events: readonly unknown[], order?: EventOrder): string {
  try {
    normalize(events, order);
  } catch (error) {
    expect(error).toBeInstanceOf(HistoryLoadError);
    expect((error as HistoryLoadError).source).toBe(SOURCE);
    return (error as Error).message.slice(`${SOURCE}: `.length);
  }
  throw new Error('expected the history to be refused');
}

/** A history started by the kernel's workflow, with `build` writing the events after it. */
function history(build: (h: HistoryBuilder) => void = () => {}): JsonObject[] {
  const h = new HistoryBuilder('run-a');
  h.started(new AgentRunHistory().input);
  h.workflowTask();
  build(h);
  return h.toJson().events;
}

const attrsOf = (loaded: LoadedHistory, id: number): EventAttributes => (loaded.events[id - 1] as HistoryEvent).attrs;
const last = (loaded: LoadedHistory): EventAttributes => (loaded.events.at(-1) as HistoryEvent).attrs;
/** The events of `history(build)` with the last event's attributes changed by `edit`. */
function withLast(build: (h: HistoryBuilder) => void, edit: (attributes: JsonObject, event: JsonObject) => void): JsonObject[] {
  const events = history(build);
  const event = events.at(-1) as JsonObject;
  const key = Object.keys(event).find((k) => k.endsWith('EventAttributes')) as string;
  edit(event[key] as JsonObject, event);
  return events;
}
const reversed = (events: readonly JsonObject[]): JsonObject[] => [...events].reverse();
/** The activity type of each scheduled event, as a newest-first reader must know it beforehand. */
function scheduledTypes(events: readonly JsonObject[]): Map<number, string> {
  const types = new Map<number, string>();
  for (const event of events) {
    const type = scheduledActivityType(event);
    if (type !== undefined) types.set(rawEventId(event) as number, type);
  }
  return types;
}

describe('the order of the events', () => {
  const events = new AgentRunHistory().turns(2).complete().histories()[0]?.events as JsonObject[];

  it('reads a history oldest first and newest first to the same model', () => {
    const ascending = normalize(events);
    expect(ascending.source).toBe(SOURCE);
    expect(ascending.mapping).toBe(DEFAULT_KERNEL_MAPPING);
    expect(ascending.events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(ascending.events[0]?.time).toBe(events[0]?.eventTime);
    const descending = normalize(reversed(events), { order: 'descending', scheduledTypes: scheduledTypes(events) });
    expect(descending).toEqual(ascending);
    expect(ascending).not.toHaveProperty('uninterpreted');
    expect(ascending).not.toHaveProperty('references');
  });

  it('refuses a history with an event missing, out of order, or not starting at event 1', () => {
    expect(refusal(events.slice(1))).toBe('history starts at event 2, not 1 (events missing)');
    expect(refusal([events[0], events[2]])).toBe('event 3 follows event 1 (events missing or out of order)');
    expect(refusal([events[0], events[1], events[1]])).toBe('event 2 follows event 2 (events missing or out of order)');
    const newestFirst: EventOrder = { order: 'descending', scheduledTypes: scheduledTypes(events) };
    expect(refusal([events[3], events[1]], newestFirst)).toBe('event 2 follows event 4 newest first (events missing or out of order)');
    expect(refusal([events[2], events[3]], newestFirst)).toBe('event 4 follows event 3 newest first (events missing or out of order)');
    expect(refusal([events[2], events[1]], newestFirst)).toBe('history newest first ends at event 2, not 1 (events missing)');
  });

  it('refuses what is not an event, an event without its id or attributes, and a history not started', () => {
    expect(refusal([null])).toBe('event #1 is not an object');
    expect(refusal([events[0], 'event'])).toBe('event #2 is not an object');
    expect(refusal([events[0], { ...events[1], eventId: undefined }])).toBe('event #2 has no eventId');
    expect(refusal([])).toBe('history has no events');
    expect(refusal([], { order: 'descending', scheduledTypes: new Map() })).toBe('history has no events');
    const task = { ...(events[1] as JsonObject), eventId: '1' };
    expect(refusal([task])).toBe('event 1 is WorkflowTaskScheduled, not WorkflowExecutionStarted');
    const bare = { eventId: '1', eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED' };
    expect(refusal([bare])).toBe('event 1 (WorkflowExecutionStarted) has no workflowExecutionStartedEventAttributes');
  });

  it('refuses shorthand payloads where it decodes them, and keeps them elsewhere', () => {
    // The CLI's shorthand: the payloads' decoded values in a list, their sizes lost.
    const shorthand = [{ turn: 1 }];
    const input = withLast(
      (h) => h.activityScheduled('call_model', {}),
      (a) => Object.assign(a, { input: shorthand }),
    );
    expect(refusal(input)).toBe('event 5 (ActivityTaskScheduled) has shorthand payloads in input; export full payloads (base64 data)');
    const result = withLast(
      (h) => h.activity('other_activity', {}, {}),
      (a) => Object.assign(a, { result: shorthand }),
    );
    expect(refusal(result)).toContain('(ActivityTaskCompleted) has shorthand payloads in result;');
    const header = withLast(
      (h) => h.activityScheduled('other_activity', {}),
      (a) => Object.assign(a, { header: { fields: { trace: { value: 'x' } } } }),
    );
    expect(last(normalize(header))).toMatchObject({ kind: 'activity-scheduled' });
  });
});

describe('events the checks do not interpret', () => {
  it('records an unknown type, an unspecified one and one marked ignorable, in event order either way', () => {
    const events = history((h) => {
      h.event('WorkflowExecutionSignaled', { signalName: 's' });
      h.event('WorkflowExecutionOptionsUpdated', {});
    });
    events.push({ eventId: '7', eventType: 'EVENT_TYPE_UNSPECIFIED' });
    events.push({ eventId: '8', eventType: 9999 });
    events.push({ eventId: '9', eventType: 'EVENT_TYPE_FROM_THE_FUTURE', eventTime: events[0]?.eventTime });
    events.push({ eventId: '10' });
    events.push({ eventId: '11', eventType: { name: 'odd' } });
    events.push({ eventId: '12', eventType: '' });
    (events[5] as JsonObject).workerMayIgnore = true;
    events.push({ ...(events[4] as JsonObject), eventId: '13', worker_may_ignore: true });
    const loaded = normalize(events);
    const expected = [
      { id: 6, type: 'WorkflowExecutionOptionsUpdated', workerMayIgnore: true },
      { id: 7, type: 'Unspecified', workerMayIgnore: false },
      { id: 8, type: 'EventType 9999', workerMayIgnore: false },
      { id: 9, type: 'EVENT_TYPE_FROM_THE_FUTURE', workerMayIgnore: false },
      { id: 10, type: '(no eventType)', workerMayIgnore: false },
      { id: 11, type: '{"name":"odd"}', workerMayIgnore: false },
      { id: 12, type: '""', workerMayIgnore: false },
      { id: 13, type: 'WorkflowExecutionSignaled', workerMayIgnore: true },
    ];
    expect(loaded.uninterpreted).toEqual(expected);
    expect(loaded.events[8]).toEqual({
      id: 9,
      type: 'EVENT_TYPE_FROM_THE_FUTURE',
      time: events[0]?.eventTime,
      payloads: [],
      attrs: { kind: 'other' },
    });
    expect(attrsOf(loaded, 5)).toEqual({ kind: 'other' });
    expect(loaded.events[4]?.payloads).toEqual([]);
    const descending = normalize(reversed(events), { order: 'descending', scheduledTypes: new Map() });
    expect(descending.uninterpreted).toEqual(expected);
  });

  it('reads an event whose ignorable mark is false', () => {
    const events = withLast(
      (h) => h.timerStarted(),
      (_a, event) => {
        event.workerMayIgnore = false;
        event.worker_may_ignore = 'true';
      },
    );
    const loaded = normalize(events);
    expect(loaded).not.toHaveProperty('uninterpreted');
    expect(last(loaded)).toEqual({ kind: 'timer-started', timerId: '1' });
  });
});

describe('the workflow start', () => {
  const run = new AgentRunHistory();

  it("reads the kernel's start: its input, ids, task queue and timeouts", () => {
    const events = history();
    const start = attrsOf(normalize(events), 1);
    expect(start).toMatchObject({
      kind: 'workflow-started',
      workflowType: 'agentRun',
      workflowId: undefined,
      taskQueue: 'longrun',
      runId: 'run-a',
      firstRunId: 'run-a',
      continuedFromRunId: undefined,
      runTimeoutMs: 0,
    });
    expect(start).not.toHaveProperty('startedBy');
    expect(start.kind === 'workflow-started' && start.input).toMatchObject({ runId: run.input.runId, userRequest: run.input.userRequest });
    const raw = (events[0] as JsonObject).workflowExecutionStartedEventAttributes as JsonObject;
    expect(normalize(events).events[0]?.payloads).toEqual(payloadFields(raw));
    expect(payloadFields(raw).map((p) => p.field)).toEqual(['input']);
  });

  it('reads a continued execution, a retry, a cron run and its timeouts', () => {
    const h = new HistoryBuilder('run-b');
    h.started(run.input, { continuedFromRunId: 'run-a', firstRunId: 'run-0' });
    const a = (h.events[0] as JsonObject).workflowExecutionStartedEventAttributes as JsonObject;
    Object.assign(a, { workflowId: 'wf-1', workflowRunTimeout: '90s', workflowExecutionTimeout: '600s' });
    expect(attrsOf(normalize(h.events), 1)).toMatchObject({
      workflowId: 'wf-1',
      runId: 'run-b',
      firstRunId: 'run-0',
      continuedFromRunId: 'run-a',
      runTimeoutMs: 90_000,
    });
    Object.assign(a, { workflowRunTimeout: '0s', initiator: 'CONTINUE_AS_NEW_INITIATOR_RETRY' });
    expect(attrsOf(normalize(h.events), 1)).toMatchObject({ startedBy: 'retry', runTimeoutMs: 600_000 });
    Object.assign(a, { workflowRunTimeout: undefined, initiator: 'CONTINUE_AS_NEW_INITIATOR_CRON_SCHEDULE' });
    expect(attrsOf(normalize(h.events), 1)).toMatchObject({ startedBy: 'cron', runTimeoutMs: 600_000 });
    Object.assign(a, { workflowExecutionTimeout: undefined, initiator: 'CONTINUE_AS_NEW_INITIATOR_WORKFLOW', taskQueue: {} });
    const start = attrsOf(normalize(h.events), 1);
    expect(start).toMatchObject({ runTimeoutMs: 0, taskQueue: undefined });
    expect(start).not.toHaveProperty('startedBy');
    Object.assign(a, { workflowId: '', originalExecutionRunId: '', firstExecutionRunId: 7, taskQueue: 'longrun' });
    expect(attrsOf(normalize(h.events), 1)).toMatchObject({
      workflowId: undefined,
      runId: undefined,
      firstRunId: undefined,
      taskQueue: undefined,
    });
  });

  it("reads another workflow's start with its input unread, and an unreadable input as such", () => {
    const h = new HistoryBuilder('run-c');
    h.started(run.input);
    const a = (h.events[0] as JsonObject).workflowExecutionStartedEventAttributes as JsonObject;
    a.workflowType = { name: 'billingRun' };
    expect(attrsOf(normalize(h.events), 1)).toMatchObject({
      workflowType: 'billingRun',
      input: { unreadable: "workflow type billingRun is not the mapping's agentRun" },
    });
    a.workflowType = undefined;
    expect(attrsOf(normalize(h.events), 1)).toMatchObject({
      workflowType: '',
      input: { unreadable: "workflow type (none) is not the mapping's agentRun" },
    });
    a.workflowType = { name: 'agentRun' };
    a.input = { payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }] };
    const input = attrsOf(normalize(h.events), 1);
    expect(input.kind === 'workflow-started' && 'unreadable' in input.input && input.input.unreadable).toMatch(
      /^the workflow input is not a RunInput \(.+\)$/,
    );
  });
});

describe('workflow tasks', () => {
  it('reads each phase, its attempt, the suggestion to continue and the history size', () => {
    const events = history((h) => h.workflowTask({ suggestContinueAsNew: true, attempt: 3 }));
    const raw = (events[5] as JsonObject).workflowTaskStartedEventAttributes as JsonObject;
    raw.historySizeBytes = '48213';
    const loaded = normalize(events);
    expect(attrsOf(loaded, 2)).toEqual({ kind: 'workflow-task', phase: 'scheduled', attempt: 1 });
    const started = (suggestContinueAsNew: boolean, historySizeBytes: number) => ({
      kind: 'workflow-task',
      phase: 'started',
      attempt: undefined,
      suggestContinueAsNew,
      historySizeBytes,
    });
    expect(attrsOf(loaded, 3)).toEqual(started(false, 0));
    expect(attrsOf(loaded, 4)).toEqual({ kind: 'workflow-task', phase: 'completed', attempt: undefined });
    expect(attrsOf(loaded, 5)).toEqual({ kind: 'workflow-task', phase: 'scheduled', attempt: 3 });
    expect(attrsOf(loaded, 6)).toEqual(started(true, 48213));
    raw.suggestContinueAsNew = 'true';
    raw.historySizeBytes = undefined;
    raw.targetWorkerDeploymentVersionChanged = true;
    expect(attrsOf(normalize(events), 6)).toEqual({
      kind: 'workflow-task',
      phase: 'started',
      attempt: undefined,
      suggestContinueAsNew: false,
      historySizeBytes: 0,
      targetVersionChanged: true,
    });
  });

  it('reads a timed-out task and the deployment a completed one names', () => {
    const events = withLast(
      (h) => h.workflowTask(),
      (a) => {
        Object.assign(a, {
          deploymentVersion: { deploymentName: 'agents', buildId: 'b7' },
          versioningBehavior: 'VERSIONING_BEHAVIOR_PINNED',
        });
      },
    );
    expect(last(normalize(events))).toEqual({
      kind: 'workflow-task',
      phase: 'completed',
      attempt: undefined,
      deployment: { version: 'agents:b7', buildId: 'b7', behavior: 'pinned' },
    });
    const timedOut = history((h) =>
      h.event('WorkflowTaskTimedOut', { scheduledEventId: '2', timeoutType: 'TIMEOUT_TYPE_START_TO_CLOSE', attempt: 2 }),
    );
    expect(last(normalize(timedOut))).toEqual({ kind: 'workflow-task', phase: 'timed-out', attempt: 2 });
  });

  it('reads a failed task: its cause and its failure, cause by cause', () => {
    const events = withLast(
      (h) => h.workflowTaskFailed('PAYLOADS_TOO_LARGE', 'payload   too\nlarge'),
      (a) => {
        (a.failure as JsonObject).cause = {
          message: 'blob over 2 MiB',
          applicationFailureInfo: { type: '' },
          cause: { message: '', applicationFailureInfo: { type: 'BlobLimit' } },
        };
      },
    );
    expect(last(normalize(events))).toEqual({
      kind: 'workflow-task-failed',
      cause: 'PAYLOADS_TOO_LARGE',
      failure: { text: 'payload too large <- blob over 2 MiB', types: ['PayloadsTooLarge', 'BlobLimit'], activityTypes: [] },
    });
    const bare = withLast(
      (h) => h.workflowTaskFailed('UNHANDLED_COMMAND'),
      (a) => {
        a.failure = undefined;
        a.cause = 9999;
      },
    );
    expect(last(normalize(bare))).toEqual({ kind: 'workflow-task-failed', cause: 'UNSPECIFIED', failure: undefined });
  });
});

describe('failures', () => {
  const failed = (failure: unknown) =>
    last(
      normalize(
        withLast(
          (h) => h.workflowTaskFailed('UNHANDLED_COMMAND'),
          (a) => Object.assign(a, { failure: failure }),
        ),
      ),
    );
  const summaryOf = (failure: unknown) => {
    const attrs = failed(failure);
    return attrs.kind === 'workflow-task-failed' ? attrs.failure : undefined;
  };

  it('follows the causes twenty deep, cuts the text at 1,000 characters, and names the activities', () => {
    let chain: JsonObject | undefined;
    for (let i = 25; i >= 1; i--) chain = { message: `m${i}`, ...(chain ? { cause: chain } : {}) };
    const summary = summaryOf(chain);
    expect(summary?.text).toBe(Array.from({ length: 20 }, (_, i) => `m${i + 1}`).join(' <- '));
    expect(summaryOf({ message: 'x'.repeat(1200) })?.text).toHaveLength(1000);
    expect(
      summaryOf({
        message: 'activity error',
        activityFailureInfo: { activityType: { name: 'call_model' } },
        cause: {
          message: 'no name',
          activityFailureInfo: {},
          cause: { message: 'inner', activityFailureInfo: { activityType: { name: 7 } } },
        },
      }),
    ).toEqual({ text: 'activity error <- no name <- inner', types: [], activityTypes: ['call_model', '', ''] });
    expect(summaryOf('a string')).toBeUndefined();
    expect(summaryOf({ message: 3, applicationFailureInfo: { type: 3 } })).toEqual({ text: '', types: [], activityTypes: [] });
  });

  it("decodes the first application failure's details, and none that are not json/plain", () => {
    expect(
      summaryOf({
        message: 'outer',
        applicationFailureInfo: { type: 'Outer', details: jsonPayloads({ bytes: 12 }, 'two') },
        cause: { message: 'inner', applicationFailureInfo: { type: 'Inner', details: jsonPayloads('ignored') } },
      }),
    ).toEqual({ text: 'outer <- inner', types: ['Outer', 'Inner'], activityTypes: [], details: [{ bytes: 12 }, 'two'] });
    expect(summaryOf({ message: 'm', applicationFailureInfo: { type: 'T', details: { payloads: [] } } })).not.toHaveProperty('details');
    const binary = { payloads: [sdkPayload.bytes(Buffer.from('raw'))] };
    expect(summaryOf({ message: 'm', applicationFailureInfo: { type: 'T', details: binary } })).not.toHaveProperty('details');
    expect(
      summaryOf({
        message: 'm',
        applicationFailureInfo: { type: 'T' },
        cause: { message: 'c', applicationFailureInfo: { details: jsonPayloads(1) } },
      }),
    ).toMatchObject({ details: [1] });
  });
});

describe('activities', () => {
  it("reads the kernel's activities: input and result by role, bounds, attempts", () => {
    const run = new AgentRunHistory().turns(1, { tools: [1500] }).complete();
    const loaded = normalize(run.histories()[0]?.events as JsonObject[]);
    const scheduled = loaded.events.filter((e) => e.attrs.kind === 'activity-scheduled').map((e) => e.attrs);
    const kinds = scheduled.map((a) => a.kind === 'activity-scheduled' && [a.activityType, a.input.kind]);
    expect(kinds).toContainEqual(['call_model', 'call-model']);
    expect(kinds).toContainEqual(['run_tool', 'run-tool']);
    expect(kinds).toContainEqual(['journal.append', 'journal-append']);
    const closed = loaded.events.filter((e) => e.attrs.kind === 'activity-closed').map((e) => e.attrs);
    expect(closed.map((a) => a.kind === 'activity-closed' && a.result?.kind)).toEqual(
      expect.arrayContaining(['call-model', 'run-tool', 'journal-append']),
    );
    expect(closed.every((a) => a.kind === 'activity-closed' && a.outcome === 'completed' && a.failure === undefined)).toBe(true);
  });

  it('reads the bounds and ids of a scheduled activity, and an activity outside the mapping as other', () => {
    const loaded = normalize(
      history((h) => {
        const s = h.activityScheduled('fetch_weather', { city: 'Oslo' }, { maximumAttempts: 4, scheduleToCloseSeconds: 90 });
        h.activityCompleted(s, { sunny: true });
      }),
    );
    expect(attrsOf(loaded, 5)).toEqual({
      kind: 'activity-scheduled',
      activityType: 'fetch_weather',
      activityId: '1',
      input: { kind: 'other' },
      maximumAttempts: 4,
      scheduleToCloseMs: 90_000,
    });
    expect(attrsOf(loaded, 6)).toEqual({ kind: 'activity-started', scheduledEventId: 5, attempt: 1 });
    expect(attrsOf(loaded, 7)).toEqual({ kind: 'activity-closed', scheduledEventId: 5, outcome: 'completed', result: { kind: 'other' } });
    const unbounded = withLast(
      (h) => h.activityScheduled('fetch_weather', {}),
      (a) => {
        a.retryPolicy = undefined;
        a.scheduleToCloseTimeout = undefined;
        a.activityId = undefined;
      },
    );
    expect(last(normalize(unbounded))).toMatchObject({ activityId: '', maximumAttempts: 0, scheduleToCloseMs: 0 });
  });

  it("leaves an unmapped activity's payloads undecoded, whatever their encoding", () => {
    const binary = { payloads: [sdkPayload.bytes(Buffer.from([0x0a, 0x02, 0x08, 0x01]))] };
    const loaded = normalize(
      withLast(
        (h) => h.activity('fetch_weather', {}, {}),
        (a) => Object.assign(a, { result: binary }),
      ).map((event) =>
        event.eventId === '5'
          ? {
              ...event,
              activityTaskScheduledEventAttributes: { ...(event.activityTaskScheduledEventAttributes as JsonObject), input: binary },
            }
          : event,
      ),
    );
    expect(attrsOf(loaded, 5)).toMatchObject({ kind: 'activity-scheduled', input: { kind: 'other' } });
    expect(attrsOf(loaded, 7)).toMatchObject({ kind: 'activity-closed', result: { kind: 'other' } });
  });

  it("names what it cannot read in a mapped activity's input or result", () => {
    const encrypted = { payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }] };
    const input = withLast(
      (h) => h.activityScheduled('call_model', {}),
      (a) => Object.assign(a, { input: encrypted }),
    );
    const scheduled = last(normalize(input));
    expect(scheduled.kind === 'activity-scheduled' && scheduled.input).toMatchObject({ kind: 'unreadable' });
    expect(scheduled.kind === 'activity-scheduled' && 'unreadable' in scheduled.input && scheduled.input.unreadable).toMatch(
      /^call_model input: ./,
    );
    const result = withLast(
      (h) => h.activity('call_model', new AgentRunHistory().request(), {}),
      (a) => Object.assign(a, { result: encrypted }),
    );
    const closed = last(normalize(result));
    expect(closed.kind === 'activity-closed' && closed.result && 'unreadable' in closed.result && closed.result.unreadable).toMatch(
      /^call_model result: ./,
    );
  });

  it('reads failed, timed-out and canceled activities with their failures, and a retry with its last failure', () => {
    const loaded = normalize(
      history((h) => {
        const a = h.activityScheduled('run_tool', {});
        h.activityFailed(a, 'tool crashed', 'ToolError', [{ exit: 2 }]);
        const b = h.activityScheduled('run_tool', {});
        h.activityTimedOut(b);
        const c = h.activityScheduled('run_tool', {});
        h.event('ActivityTaskCancelRequested', { scheduledEventId: String(c) });
        h.event('ActivityTaskCanceled', { scheduledEventId: String(c), details: jsonPayloads('stop') });
        h.event('ActivityTaskStarted', {
          scheduledEventId: String(b),
          attempt: 3,
          lastFailure: { message: 'retry me', applicationFailureInfo: { type: 'Flaky' } },
        });
      }),
    );
    expect(attrsOf(loaded, 7)).toEqual({
      kind: 'activity-closed',
      scheduledEventId: 5,
      outcome: 'failed',
      failure: { text: 'tool crashed', types: ['ToolError'], activityTypes: [], details: [{ exit: 2 }] },
    });
    expect(attrsOf(loaded, 10)).toMatchObject({
      kind: 'activity-closed',
      scheduledEventId: 8,
      outcome: 'timed-out',
      failure: { text: 'activity StartToClose timeout' },
    });
    expect(attrsOf(loaded, 12)).toEqual({ kind: 'activity-cancel-requested', scheduledEventId: 11 });
    expect(attrsOf(loaded, 13)).toEqual({ kind: 'activity-closed', scheduledEventId: 11, outcome: 'canceled', failure: undefined });
    expect(attrsOf(loaded, 14)).toEqual({
      kind: 'activity-started',
      scheduledEventId: 8,
      attempt: 3,
      lastFailure: { text: 'retry me', types: ['Flaky'], activityTypes: [] },
    });
  });

  it('refuses a result that names no scheduled activity, and reads one newest first from the types given', () => {
    const events = history((h) => h.activity('run_tool', {}, {}));
    const orphan = events.filter((e) => e.eventId !== '5').map((e, i) => ({ ...e, eventId: String(i + 1) }));
    expect(refusal(orphan)).toBe('activity result names scheduled event 5, which is not in the history');
    const unnamed = withLast(
      (h) => h.activity('run_tool', {}, {}),
      (a) => Object.assign(a, { scheduledEventId: undefined }),
    );
    expect(refusal(unnamed)).toBe('activity result names scheduled event 0, which is not in the history');
    expect(refusal(reversed(events), { order: 'descending', scheduledTypes: new Map() })).toBe(
      'activity result names scheduled event 5, which is not in the history',
    );
  });
});

describe('timers, children, external workflows, markers and the end', () => {
  it('reads each of them with the event it refers to', () => {
    const loaded = normalize(
      history((h) => {
        const timer = h.timerStarted();
        h.timerFired(timer, '1');
        const other = h.timerStarted();
        h.event('TimerCanceled', { timerId: '2', startedEventId: String(other) });
        h.childStarted('indexer');
        h.event('ChildWorkflowExecutionCompleted', { initiatedEventId: '9', result: jsonPayloads({}) });
        h.event('SignalExternalWorkflowExecutionInitiated', { signalName: 'poke', input: jsonPayloads(1) });
        h.event('ExternalWorkflowExecutionSignaled', { initiatedEventId: '11' });
        h.event('RequestCancelExternalWorkflowExecutionInitiated', {});
        h.event('RequestCancelExternalWorkflowExecutionFailed', { initiatedEventId: '13' });
        h.event('StartChildWorkflowExecutionFailed', { initiatedEventId: '9' });
        h.event('TimerStarted', {});
        h.event('WorkflowExecutionSignaled', { signalName: 'poke' });
      }),
    );
    expect(loaded.events.slice(4).map((e) => e.attrs)).toEqual([
      { kind: 'timer-started', timerId: '1' },
      { kind: 'timer-closed', startedEventId: 5 },
      { kind: 'timer-started', timerId: '2' },
      { kind: 'timer-closed', startedEventId: 7 },
      { kind: 'child-initiated', workflowType: 'indexer' },
      { kind: 'child-closed', initiatedEventId: 9 },
      { kind: 'external-initiated' },
      { kind: 'external-closed', initiatedEventId: 11 },
      { kind: 'external-initiated' },
      { kind: 'external-closed', initiatedEventId: 13 },
      { kind: 'child-closed', initiatedEventId: 9 },
      { kind: 'timer-started', timerId: '' },
      { kind: 'other' },
    ]);
  });

  it('reads every closing of a child workflow and of an external request', () => {
    const closings = [
      ['ChildWorkflowExecutionFailed', 'child-closed'],
      ['ChildWorkflowExecutionCanceled', 'child-closed'],
      ['ChildWorkflowExecutionTimedOut', 'child-closed'],
      ['ChildWorkflowExecutionTerminated', 'child-closed'],
      ['SignalExternalWorkflowExecutionFailed', 'external-closed'],
      ['ExternalWorkflowExecutionCancelRequested', 'external-closed'],
    ];
    for (const [type, kind] of closings) {
      const events = history((h) => h.event(type as string, { initiatedEventId: '2' }));
      expect(last(normalize(events)), type).toEqual(
        kind === 'child-closed' ? { kind, initiatedEventId: 2 } : { kind, initiatedEventId: 2 },
      );
    }
  });

  it("reads the patch of TypeScript's, Go's and Java's markers, and no patch from another marker", () => {
    const marker = (name: unknown, details: unknown) =>
      last(normalize(history((h) => h.event('MarkerRecorded', { markerName: name, details }))));
    expect(last(normalize(history((h) => h.patchMarker('compaction-v1'))))).toEqual({
      kind: 'marker',
      name: 'core_patch',
      patchId: 'compaction-v1',
    });
    const legacy = { payloads: [{ metadata: {}, data: Buffer.from('old-patch').toString('base64') }] };
    expect(marker('core_patch', { patch_id: legacy })).toEqual({ kind: 'marker', name: 'core_patch', patchId: 'old-patch' });
    expect(marker('core_patch', { patch_id: { payloads: ['x'] } })).toEqual({ kind: 'marker', name: 'core_patch', patchId: undefined });
    expect(marker('core_patch', {})).toEqual({ kind: 'marker', name: 'core_patch', patchId: undefined });
    expect(marker('core_patch', { 'patch-data': jsonPayloads(null) })).toEqual({ kind: 'marker', name: 'core_patch', patchId: undefined });
    expect(marker('Version', { 'change-id': jsonPayloads('go-change'), version: jsonPayloads(2) })).toEqual({
      kind: 'marker',
      name: 'Version',
      patchId: 'go-change',
      version: 2,
    });
    expect(marker('Version', { changeId: jsonPayloads('java-change'), version: jsonPayloads('2') })).toEqual({
      kind: 'marker',
      name: 'Version',
      patchId: 'java-change',
    });
    expect(
      marker('Version', { 'change-id': jsonPayloads('go-change'), changeId: jsonPayloads('java-change'), version: jsonPayloads(1) }),
    ).toMatchObject({
      patchId: 'go-change',
    });
    const binary = { payloads: [sdkPayload.bytes(Buffer.from('raw'))] };
    expect(marker('Version', { changeId: binary })).toEqual({ kind: 'marker', name: 'Version' });
    expect(marker('core_patch', { 'patch-data': binary })).toEqual({ kind: 'marker', name: 'core_patch' });
    expect(marker('SideEffect', { data: jsonPayloads({ id: 'x' }), 'patch-data': jsonPayloads({ id: 'x' }) })).toEqual({
      kind: 'marker',
      name: 'SideEffect',
    });
    // Only the gate markers name a patch, whatever another marker's details hold.
    expect(marker('MutableSideEffect', { 'change-id': jsonPayloads('go-change'), version: jsonPayloads(2) })).toEqual({
      kind: 'marker',
      name: 'MutableSideEffect',
    });
    expect(marker(undefined, undefined)).toEqual({ kind: 'marker', name: '' });
    expect(marker('Version', 'details')).toEqual({ kind: 'marker', name: 'Version' });
  });

  it('reads a ContinueAsNew: the new run and its input, or why the input is unreadable', () => {
    const run = new AgentRunHistory();
    const events = history((h) => h.continuedAsNew('run-b', run.input));
    const attrs = last(normalize(events));
    expect(attrs).toMatchObject({ kind: 'continued-as-new', newRunId: 'run-b', input: { runId: run.input.runId } });
    const broken = withLast(
      (h) => h.continuedAsNew('run-b', run.input),
      (a) => {
        a.input = jsonPayloads('not a run input');
        a.newExecutionRunId = undefined;
      },
    );
    const unreadable = last(normalize(broken));
    expect(unreadable).toMatchObject({ kind: 'continued-as-new', newRunId: undefined });
    expect(unreadable.kind === 'continued-as-new' && 'unreadable' in unreadable.input && unreadable.input.unreadable).toMatch(
      /^ContinueAsNew input is not a RunInput \(.+\)$/,
    );
  });

  it("reads each end of the workflow, and a completion's result when it is readable", () => {
    expect(last(normalize(history((h) => h.completed({ ended: 'done' }))))).toEqual({
      kind: 'workflow-closed',
      outcome: 'completed',
      reason: undefined,
      identity: undefined,
      failure: undefined,
      result: { ended: 'done' },
    });
    const empty = withLast(
      (h) => h.completed({}),
      (a) => Object.assign(a, { result: undefined }),
    );
    expect(last(normalize(empty))).not.toHaveProperty('result');
    const binary = withLast(
      (h) => h.completed({}),
      (a) => Object.assign(a, { result: { payloads: [sdkPayload.bytes(Buffer.from('raw'))] } }),
    );
    expect(last(normalize(binary))).not.toHaveProperty('result');
    expect(last(normalize(history((h) => h.failed('guard tripped', 'PayloadGuard'))))).toEqual({
      kind: 'workflow-closed',
      outcome: 'failed',
      reason: undefined,
      identity: undefined,
      failure: { text: 'guard tripped', types: ['PayloadGuard'], activityTypes: [] },
    });
    expect(last(normalize(history((h) => h.terminated('history size exceeds limit', 'history-service'))))).toEqual({
      kind: 'workflow-closed',
      outcome: 'terminated',
      reason: 'history size exceeds limit',
      identity: 'history-service',
      failure: undefined,
    });
    const failedWithResult = withLast(
      (h) => h.failed('x'),
      (a) => Object.assign(a, { result: jsonPayloads({ ended: 'done' }) }),
    );
    expect(last(normalize(failedWithResult))).not.toHaveProperty('result');
    for (const [type, outcome] of [
      ['WorkflowExecutionTimedOut', 'timed-out'],
      ['WorkflowExecutionCanceled', 'canceled'],
    ]) {
      expect(last(normalize(history((h) => h.event(type as string, {}))))).toMatchObject({ kind: 'workflow-closed', outcome });
    }
  });
});

describe('the raw readers a newest-first load uses', () => {
  const events = history((h) => {
    const s = h.activityScheduled('run_tool', {});
    h.activityFailed(s, 'x');
  });

  it('reads an event id, the scheduled event a result names and the activity an event schedules', () => {
    expect(rawEventId(events[4])).toBe(5);
    expect(rawEventId({ eventId: 7 })).toBe(7);
    expect(rawEventId(null)).toBeUndefined();
    expect(rawEventId({})).toBeUndefined();
    expect(scheduledActivityType(events[4])).toBe('run_tool');
    expect(scheduledActivityType(events[5])).toBeUndefined();
    expect(scheduledActivityType('event')).toBeUndefined();
    expect(scheduledActivityType(null)).toBeUndefined();
    expect(scheduledActivityType({ eventId: '5', eventType: 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED' })).toBeUndefined();
    expect(resultScheduledEventId(events[6])).toBe(5);
    expect(resultScheduledEventId(events[5])).toBeUndefined();
    expect(resultScheduledEventId(events[4])).toBeUndefined();
    expect(resultScheduledEventId(undefined)).toBeUndefined();
    expect(resultScheduledEventId({ eventType: 'EVENT_TYPE_ACTIVITY_TASK_FAILED' })).toBeUndefined();
    expect(resultScheduledEventId({ eventType: 'EVENT_TYPE_ACTIVITY_TASK_CANCELED', activityTaskCanceledEventAttributes: {} })).toBe(0);
    for (const type of ['COMPLETED', 'TIMED_OUT', 'CANCELED']) {
      const key = `activityTask${type === 'TIMED_OUT' ? 'TimedOut' : type.charAt(0) + type.slice(1).toLowerCase()}EventAttributes`;
      expect(resultScheduledEventId({ eventType: `EVENT_TYPE_ACTIVITY_TASK_${type}`, [key]: { scheduledEventId: '9' } })).toBe(9);
    }
  });
});

describe('External Storage references', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const reference = (key: string, sizeBytes = 70_000): JsonObject => ({
    metadata: { encoding: b64('json/protobuf'), messageType: b64(REFERENCE_MESSAGE_TYPE) },
    data: b64(JSON.stringify({ driverName: 'aws.s3driver', claimData: { bucket: 'b', key } })),
    externalPayloads: [{ sizeBytes: String(sizeBytes) }],
  });
  const keyOf = (key: string) => referenceKey({ driverName: 'aws.s3driver', claimData: { bucket: 'b', key } });
  const run = new AgentRunHistory();
  const request = run.request();

  /** A run whose call_model input and tool result, workflow input and an unmapped activity's input are offloaded. */
  function offloaded(): JsonObject[] {
    const events = history((h) => {
      const call = h.activityScheduled('call_model', { request, turn: 1 });
      h.activityCompleted(call, { message: { role: 'assistant', content: 'ok' } });
      const tool = h.activityScheduled('run_tool', {});
      h.activityCompleted(tool, { role: 'tool', content: 'out' });
      h.activity('fetch_weather', {}, {});
      h.event('WorkflowExecutionSignaled', { signalName: 'poke', input: { payloads: [reference('signal')] } });
    });
    const attributes = (id: number) => Object.values(events[id - 1] as JsonObject).find((v) => typeof v === 'object') as JsonObject;
    (attributes(1) as JsonObject).input = { payloads: [reference('start')] };
    attributes(5).input = { payloads: [reference('call')] };
    attributes(10).result = { payloads: [reference('tool-result')] };
    attributes(11).input = { payloads: [reference('weather'), reference('weather-2')] };
    return events;
  }

  it('puts each stored payload in its place, keeps the sizes the history has, and records each reference', () => {
    const events = offloaded();
    const stored: StoredPayloads = new Map<string, StoredPayload | 'missing'>([
      [keyOf('start'), jsonPayload(run.input)],
      [keyOf('call'), jsonPayload({ request, turn: 1 })],
      [keyOf('tool-result'), 'missing'],
    ]);
    const loaded = normalize(events, undefined, stored);
    expect(attrsOf(loaded, 1)).toMatchObject({ input: { runId: run.input.runId } });
    expect(attrsOf(loaded, 5)).toMatchObject({ input: { kind: 'call-model', turn: 1 } });
    expect(loaded.events[4]?.payloads).toEqual(payloadFields({ input: { payloads: [reference('call')] } }));
    const refs = loaded.references ?? [];
    expect(refs.map((r) => [r.eventId, r.field, r.index, r.activityType, r.resolution, r.read, r.storedBytes])).toEqual([
      [1, 'input', 0, undefined, 'resolved', true, payloadSize(jsonPayload(run.input))],
      [5, 'input', 0, 'call_model', 'resolved', true, payloadSize(jsonPayload({ request, turn: 1 }))],
      [10, 'result', 0, 'run_tool', 'missing', true, undefined],
      [11, 'input', 0, 'fetch_weather', 'missing', false, undefined],
      [11, 'input', 1, 'fetch_weather', 'missing', false, undefined],
      [14, 'input', 0, undefined, 'missing', false, undefined],
    ]);
    expect(refs[0]).toMatchObject({ eventType: 'WorkflowExecutionStarted', key: keyOf('start'), sizeBytes: 70_000 });
    expect(refs[0]).not.toHaveProperty('activityType');
    const result = attrsOf(loaded, 10);
    expect(result.kind === 'activity-closed' && result.result?.kind).toBe('unreadable');
  });

  it('leaves the references unresolved without stored payloads, and records them in event order newest first', () => {
    const events = offloaded();
    const ascending = normalize(events);
    expect(ascending.references?.map((r) => r.resolution)).toEqual([
      'no-store',
      'no-store',
      'no-store',
      'no-store',
      'no-store',
      'no-store',
    ]);
    expect(attrsOf(ascending, 1)).toMatchObject({ input: { unreadable: expect.stringMatching(/^the workflow input is not a RunInput/) } });
    const descending = normalize(reversed(events), { order: 'descending', scheduledTypes: scheduledTypes(events) });
    expect(descending.references).toEqual(ascending.references);
    expect(descending.references?.map((r) => [r.eventId, r.index])).toEqual([
      [1, 0],
      [5, 0],
      [10, 0],
      [11, 0],
      [11, 1],
      [14, 0],
    ]);
  });

  it('names a reference it cannot read as unreadable, and an offloaded result of an unknown scheduled event as unread', () => {
    const events = withLast(
      (h) => h.activity('run_tool', {}, {}),
      (a) => Object.assign(a, { result: { payloads: [{ ...reference('x'), data: b64('not json') }] } }),
    );
    const refs = normalize(events).references ?? [];
    expect(refs).toHaveLength(1);
    expect(refs[0]).toMatchObject({ resolution: 'unreadable', read: true, activityType: 'run_tool' });
    const newestFirst = normalize(reversed(events), { order: 'descending', scheduledTypes: new Map([[5, 'run_tool']]) });
    expect(newestFirst.references?.[0]).toMatchObject({ activityType: 'run_tool', read: true });
    const failed = withLast(
      (h) => {
        const s = h.activityScheduled('run_tool', {});
        h.activityFailed(s, 'x', 'E', ['d']);
      },
      (a) => {
        ((a.failure as JsonObject).applicationFailureInfo as JsonObject).details = { payloads: [reference('details')] };
        a.scheduledEventId = '5';
      },
    );
    expect(normalize(failed).references?.[0]).toMatchObject({
      field: 'failure.applicationFailureInfo.details',
      activityType: 'run_tool',
      read: true,
    });
  });

  it('leaves an unresolved reference in its place, so that what reads it names the reference', () => {
    const events = offloaded();
    for (const stored of [undefined, new Map<string, StoredPayload | 'missing'>([[keyOf('start'), 'missing']])]) {
      const start = attrsOf(normalize(events, undefined, stored), 1);
      expect(start.kind === 'workflow-started' && 'unreadable' in start.input && start.input.unreadable).toContain(
        'an External Storage reference whose stored payload the checks were not given',
      );
    }
  });

  it("reads the payloads of the workflow's own events besides the mapping's activities", () => {
    const one = { payloads: [reference('r')] };
    const events = history((h) => {
      h.event('MarkerRecorded', { markerName: 'core_patch', details: { 'patch-data': one } });
      h.workflowTaskFailed('UNHANDLED_COMMAND');
      h.continuedAsNew('run-b', {});
    });
    const failure = (events[7] as JsonObject).workflowTaskFailedEventAttributes as JsonObject;
    ((failure.failure as JsonObject).applicationFailureInfo as JsonObject).details = one;
    ((events[8] as JsonObject).workflowExecutionContinuedAsNewEventAttributes as JsonObject).input = one;
    const completed = withLast(
      (h) => h.completed({}),
      (a) => Object.assign(a, { result: one }),
    );
    const failed = withLast(
      (h) => h.failed('x'),
      (a) => Object.assign(a.failure as JsonObject, { applicationFailureInfo: { type: 'E', details: one } }),
    );
    const read = [
      ...(normalize(events).references ?? []),
      ...(normalize(completed).references ?? []),
      ...(normalize(failed).references ?? []),
    ];
    expect(read.map((r) => [r.eventType, r.read])).toEqual([
      ['MarkerRecorded', true],
      ['WorkflowTaskFailed', true],
      ['WorkflowExecutionContinuedAsNew', true],
      ['WorkflowExecutionCompleted', true],
      ['WorkflowExecutionFailed', true],
    ]);
  });

  it("lists an event's references in the same order oldest first and newest first", () => {
    // A retried start: its input and the failure it retries after, both offloaded.
    const events = history();
    const start = (events[0] as JsonObject).workflowExecutionStartedEventAttributes as JsonObject;
    start.input = { payloads: [reference('input')] };
    start.continuedFailure = { message: 'crashed', applicationFailureInfo: { type: 'E', details: { payloads: [reference('details')] } } };
    start.initiator = 'CONTINUE_AS_NEW_INITIATOR_RETRY';
    const fields = (loaded: LoadedHistory) => loaded.references?.map((r) => r.field);
    const ascending = fields(normalize(events));
    expect(ascending).toEqual(fields(normalize(reversed(events), { order: 'descending', scheduledTypes: new Map() })));
    expect(ascending).toEqual(['continuedFailure.applicationFailureInfo.details', 'input']);
    expect(ascending).toEqual(listReferences({ events }).map((r) => r.field));
  });
});
