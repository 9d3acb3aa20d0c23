/**
 * Writes one execution's history event by event in the exact proto3 JSON shape of
 * `temporal workflow show --output json` (enum constants, int64 as strings, base64 payloads,
 * RFC 3339 times). Deterministic: event times advance one second per event from a fixed epoch.
 * Events go to a sink, so a generator can stream a big history to disk.
 */

export type JsonObject = Record<string, unknown>;
export type EventSink = (event: JsonObject) => void;

const EPOCH_MS = Date.UTC(2026, 10, 8, 9, 0, 0);
const JSON_PLAIN = Buffer.from('json/plain').toString('base64');
const TASK_QUEUE = { name: 'longrun', kind: 'TASK_QUEUE_KIND_NORMAL' };
const IDENTITY = 'longrun-fixture@checks';

export function jsonPayload(value: unknown): JsonObject {
  return { metadata: { encoding: JSON_PLAIN }, data: Buffer.from(JSON.stringify(value)).toString('base64') };
}

export function jsonPayloads(...values: unknown[]): JsonObject {
  return { payloads: values.map(jsonPayload) };
}

function constantCase(type: string): string {
  return type.replace(/(?<!^)([A-Z])/g, '_$1').toUpperCase();
}

export class HistoryBuilder {
  private nextId = 1;
  private nextActivityId = 1;
  private nextTimerId = 1;
  private lastWorkflowTaskCompleted = 0;
  readonly events: JsonObject[] = [];

  constructor(
    readonly runId: string,
    private readonly sink?: EventSink,
  ) {}

  /** Appends an event of `type` (PascalCase) with its attributes; returns its id. */
  event(type: string, attributes: JsonObject): number {
    const id = this.nextId++;
    const event = {
      eventId: String(id),
      eventTime: new Date(EPOCH_MS + id * 1000).toISOString(),
      eventType: `EVENT_TYPE_${constantCase(type)}`,
      taskId: String(1_048_576 + id),
      [`${type.charAt(0).toLowerCase()}${type.slice(1)}EventAttributes`]: attributes,
    };
    if (this.sink) this.sink(event);
    else this.events.push(event);
    return id;
  }

  get lastEventId(): number {
    return this.nextId - 1;
  }

  started(input: unknown, options: { continuedFromRunId?: string; firstRunId?: string } = {}): number {
    return this.event('WorkflowExecutionStarted', {
      workflowType: { name: 'agentRun' },
      taskQueue: TASK_QUEUE,
      input: jsonPayloads(input),
      workflowExecutionTimeout: '0s',
      workflowRunTimeout: '0s',
      workflowTaskTimeout: '10s',
      ...(options.continuedFromRunId && {
        continuedExecutionRunId: options.continuedFromRunId,
        initiator: 'CONTINUE_AS_NEW_INITIATOR_WORKFLOW',
      }),
      originalExecutionRunId: this.runId,
      identity: IDENTITY,
      firstExecutionRunId: options.firstRunId ?? this.runId,
      attempt: 1,
      header: {},
    });
  }

  /**
   * A workflow task that completes: scheduled, started, completed. Returns the completed id.
   * `suggestContinueAsNew`: its started event carries the server's suggestion; `attempt`: the
   * task's attempt (after failed ones, which Temporal retries without writing them).
   */
  workflowTask(options: { suggestContinueAsNew?: boolean; attempt?: number } = {}): number {
    const scheduled = this.event('WorkflowTaskScheduled', {
      taskQueue: TASK_QUEUE,
      startToCloseTimeout: '10s',
      attempt: options.attempt ?? 1,
    });
    const started = this.event('WorkflowTaskStarted', {
      scheduledEventId: String(scheduled),
      identity: IDENTITY,
      requestId: `request-${scheduled}`,
      historySizeBytes: '0',
      ...(options.suggestContinueAsNew ? { suggestContinueAsNew: true } : {}),
    });
    this.lastWorkflowTaskCompleted = this.event('WorkflowTaskCompleted', {
      scheduledEventId: String(scheduled),
      startedEventId: String(started),
      identity: IDENTITY,
    });
    return this.lastWorkflowTaskCompleted;
  }

  /** A workflow task that fails with `cause` (e.g. "PAYLOADS_TOO_LARGE"). */
  workflowTaskFailed(cause: string, message = 'workflow task failed', attempt = 1): number {
    const scheduled = this.event('WorkflowTaskScheduled', {
      taskQueue: TASK_QUEUE,
      startToCloseTimeout: '10s',
      attempt,
    });
    const started = this.event('WorkflowTaskStarted', {
      scheduledEventId: String(scheduled),
      identity: IDENTITY,
      requestId: `request-${scheduled}`,
    });
    return this.event('WorkflowTaskFailed', {
      scheduledEventId: String(scheduled),
      startedEventId: String(started),
      cause: `WORKFLOW_TASK_FAILED_CAUSE_${cause}`,
      failure: {
        message,
        source: 'TypeScriptSDK',
        applicationFailureInfo: { type: cause === 'PAYLOADS_TOO_LARGE' ? 'PayloadsTooLarge' : 'Error' },
      },
      identity: IDENTITY,
    });
  }

  activityScheduled(
    activityType: string,
    input: unknown,
    bounds: { maximumAttempts?: number; scheduleToCloseSeconds?: number } = {},
  ): number {
    return this.event('ActivityTaskScheduled', {
      activityId: String(this.nextActivityId++),
      activityType: { name: activityType },
      taskQueue: TASK_QUEUE,
      header: {},
      input: jsonPayloads(input),
      scheduleToCloseTimeout: `${bounds.scheduleToCloseSeconds ?? 0}s`,
      scheduleToStartTimeout: '0s',
      startToCloseTimeout: '300s',
      heartbeatTimeout: '0s',
      workflowTaskCompletedEventId: String(this.lastWorkflowTaskCompleted),
      retryPolicy: {
        initialInterval: '1s',
        backoffCoefficient: 2,
        maximumInterval: '100s',
        ...(bounds.maximumAttempts !== undefined && { maximumAttempts: bounds.maximumAttempts }),
      },
    });
  }

  activityStarted(scheduled: number, attempt = 1): number {
    return this.event('ActivityTaskStarted', {
      scheduledEventId: String(scheduled),
      identity: IDENTITY,
      requestId: `request-${scheduled}`,
      attempt,
    });
  }

  activityCompleted(scheduled: number, result: unknown): number {
    const started = this.activityStarted(scheduled);
    return this.event('ActivityTaskCompleted', {
      result: jsonPayloads(result),
      scheduledEventId: String(scheduled),
      startedEventId: String(started),
      identity: IDENTITY,
    });
  }

  activityFailed(scheduled: number, message: string, type = 'Error', details?: unknown[]): number {
    const started = this.activityStarted(scheduled);
    const info = details ? { type, details: jsonPayloads(...details) } : { type };
    return this.event('ActivityTaskFailed', {
      failure: { message, source: 'TypeScriptSDK', applicationFailureInfo: info },
      scheduledEventId: String(scheduled),
      startedEventId: String(started),
      identity: IDENTITY,
      retryState: 'RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED',
    });
  }

  activityTimedOut(scheduled: number): number {
    const started = this.activityStarted(scheduled);
    return this.event('ActivityTaskTimedOut', {
      failure: {
        message: 'activity StartToClose timeout',
        timeoutFailureInfo: { timeoutType: 'TIMEOUT_TYPE_START_TO_CLOSE' },
      },
      scheduledEventId: String(scheduled),
      startedEventId: String(started),
      retryState: 'RETRY_STATE_TIMEOUT',
    });
  }

  /** A whole activity: scheduled and completed with `result`. Returns the scheduled id. */
  activity(activityType: string, input: unknown, result: unknown): number {
    const scheduled = this.activityScheduled(activityType, input);
    this.activityCompleted(scheduled, result);
    return scheduled;
  }

  timerStarted(seconds = 5): number {
    return this.event('TimerStarted', {
      timerId: String(this.nextTimerId++),
      startToFireTimeout: `${seconds}s`,
      workflowTaskCompletedEventId: String(this.lastWorkflowTaskCompleted),
    });
  }

  timerFired(started: number, timerId: string): number {
    return this.event('TimerFired', { timerId, startedEventId: String(started) });
  }

  childStarted(workflowType: string): number {
    return this.event('StartChildWorkflowExecutionInitiated', {
      namespace: 'default',
      workflowId: `child-${this.nextId}`,
      workflowType: { name: workflowType },
      taskQueue: TASK_QUEUE,
      input: jsonPayloads({}),
      workflowTaskCompletedEventId: String(this.lastWorkflowTaskCompleted),
    });
  }

  /** The marker `patched(patchId)` records in the TypeScript SDK. */
  patchMarker(patchId: string): number {
    return this.event('MarkerRecorded', {
      markerName: 'core_patch',
      details: { 'patch-data': jsonPayloads({ id: patchId, deprecated: false }) },
      workflowTaskCompletedEventId: String(this.lastWorkflowTaskCompleted),
    });
  }

  continuedAsNew(newRunId: string, input: unknown): number {
    return this.event('WorkflowExecutionContinuedAsNew', {
      newExecutionRunId: newRunId,
      workflowType: { name: 'agentRun' },
      taskQueue: TASK_QUEUE,
      input: jsonPayloads(input),
      workflowRunTimeout: '0s',
      workflowTaskTimeout: '10s',
      workflowTaskCompletedEventId: String(this.lastWorkflowTaskCompleted),
      initiator: 'CONTINUE_AS_NEW_INITIATOR_WORKFLOW',
    });
  }

  completed(result: unknown): number {
    return this.event('WorkflowExecutionCompleted', {
      result: jsonPayloads(result),
      workflowTaskCompletedEventId: String(this.lastWorkflowTaskCompleted),
    });
  }

  failed(message: string, type = 'Error'): number {
    return this.event('WorkflowExecutionFailed', {
      failure: { message, source: 'TypeScriptSDK', applicationFailureInfo: { type } },
      retryState: 'RETRY_STATE_RETRY_POLICY_NOT_SET',
      workflowTaskCompletedEventId: String(this.lastWorkflowTaskCompleted),
    });
  }

  terminated(reason: string, identity: string): number {
    return this.event('WorkflowExecutionTerminated', { reason, identity });
  }

  /** The history as `temporal workflow show --output json` prints it. */
  toJson(): { events: JsonObject[] } {
    return { events: this.events };
  }
}
