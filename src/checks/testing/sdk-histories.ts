/**
 * Histories of other teams' workflows, in the shapes the SDKs' own test histories have (learned
 * from their public test fixtures, written here from scratch): Go's older export (numbers for
 * int64, PascalCase enums, `null` for empty payloads), Java's (PascalCase enums, int64 strings,
 * interface-named workflow types, capitalized activity methods, a `Version` marker with
 * `changeId`), .NET's (every field present, `null` where unset), Python's and TypeScript's
 * (`EVENT_TYPE_*` constants), with the payload encodings the SDKs write (json/plain,
 * json/protobuf, binary/null, binary/plain). Deterministic: ids and times follow the event ids.
 */

type Json = Record<string, unknown>;

export interface Dialect {
  /** `EVENT_TYPE_WORKFLOW_TASK_FAILED` and `WORKFLOW_TASK_FAILED_CAUSE_*`, or `WorkflowTaskFailed` and `NonDeterministicError`. */
  enums: 'constant' | 'pascal';
  /** int64 fields as JSON strings (proto3 JSON) or numbers (older Go tools). */
  int64: 'string' | 'number';
  /** Unset message fields written as `null` (.NET's JSON writer). */
  nulls: boolean;
}

const base64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');

/** A payload with the metadata an SDK's data converter writes. */
export const payload = {
  json: (value: unknown): Json => ({ metadata: { encoding: base64('json/plain') }, data: base64(JSON.stringify(value)) }),
  protobufJson: (messageType: string, value: unknown): Json => ({
    metadata: { encoding: base64('json/protobuf'), messageType: base64(messageType) },
    data: base64(JSON.stringify(value)),
  }),
  nothing: (): Json => ({ metadata: { encoding: base64('binary/null') } }),
  bytes: (data: Buffer): Json => ({ metadata: { encoding: base64('binary/plain') }, data: data.toString('base64') }),
};

const pascalToConstant = (name: string): string => name.replace(/(?<!^)([A-Z])/g, '_$1').toUpperCase();

export interface WorkflowStart {
  workflowType: string;
  workflowId: string;
  runId: string;
  firstRunId?: string;
  continuedFromRunId?: string;
  taskQueue: string;
  input: Json[];
}

export class SdkHistory {
  private readonly events: Json[] = [];
  private lastTaskCompleted = 0;
  private activities = 0;

  constructor(
    private readonly dialect: Dialect,
    private readonly start: WorkflowStart,
  ) {
    this.add('WorkflowExecutionStarted', {
      workflowType: { name: start.workflowType },
      taskQueue: this.taskQueue(),
      input: this.payloads(start.input),
      workflowTaskTimeout: '10s',
      originalExecutionRunId: start.runId,
      firstExecutionRunId: start.firstRunId ?? start.runId,
      workflowId: start.workflowId,
      attempt: 1,
      ...(start.continuedFromRunId
        ? { continuedExecutionRunId: start.continuedFromRunId, initiator: this.enumValue('CONTINUE_AS_NEW_INITIATOR_', 'Workflow') }
        : this.unset('continuedExecutionRunId', 'parentWorkflowExecution', 'memo')),
    });
  }

  private int64(n: number): number | string {
    return this.dialect.int64 === 'string' ? String(n) : n;
  }

  private enumValue(prefix: string, pascal: string): string {
    return this.dialect.enums === 'constant' ? `${prefix}${pascalToConstant(pascal)}` : pascal;
  }

  private unset(...fields: string[]): Json {
    return this.dialect.nulls ? Object.fromEntries(fields.map((f) => [f, null])) : {};
  }

  private taskQueue(): Json {
    return { name: this.start.taskQueue, kind: this.enumValue('TASK_QUEUE_KIND_', 'Normal') };
  }

  private payloads(list: Json[]): Json | null {
    return list.length === 0 && this.dialect.nulls ? null : { payloads: list };
  }

  private add(type: string, attributes: Json): number {
    const id = this.events.length + 1;
    this.events.push({
      eventId: this.int64(id),
      eventTime: new Date(Date.UTC(2025, 2, 3, 12, 0, id)).toISOString(),
      eventType: this.enumValue('EVENT_TYPE_', type),
      taskId: this.int64(2_097_152 + id),
      [`${type.charAt(0).toLowerCase()}${type.slice(1)}EventAttributes`]: attributes,
    });
    return id;
  }

  private taskScheduledAndStarted(attempt: number): { scheduled: number; started: number } {
    const scheduled = this.add('WorkflowTaskScheduled', { taskQueue: this.taskQueue(), startToCloseTimeout: '10s', attempt });
    const started = this.add('WorkflowTaskStarted', {
      scheduledEventId: this.int64(scheduled),
      identity: 'worker@host',
      historySizeBytes: this.int64(400 * scheduled),
    });
    return { scheduled, started };
  }

  workflowTask(): this {
    const { scheduled, started } = this.taskScheduledAndStarted(1);
    this.lastTaskCompleted = this.add('WorkflowTaskCompleted', {
      scheduledEventId: this.int64(scheduled),
      startedEventId: this.int64(started),
      identity: 'worker@host',
    });
    return this;
  }

  /** A workflow task that fails with `cause` (PascalCase, e.g. NonDeterministicError), at `attempt`. */
  failedWorkflowTask(cause: string, message: string, attempt: number): this {
    const { scheduled, started } = this.taskScheduledAndStarted(attempt);
    this.add('WorkflowTaskFailed', {
      scheduledEventId: this.int64(scheduled),
      startedEventId: this.int64(started),
      cause: this.enumValue('WORKFLOW_TASK_FAILED_CAUSE_', cause),
      failure: { message, applicationFailureInfo: { type: 'PanicError' } },
      identity: 'worker@host',
    });
    return this;
  }

  activity(name: string, input: Json[], result: Json[]): this {
    const scheduled = this.add('ActivityTaskScheduled', {
      activityId: String(++this.activities),
      activityType: { name },
      taskQueue: this.taskQueue(),
      input: this.payloads(input),
      scheduleToCloseTimeout: '60s',
      startToCloseTimeout: '60s',
      workflowTaskCompletedEventId: this.int64(this.lastTaskCompleted),
      retryPolicy: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '100s', maximumAttempts: 0 },
    });
    const started = this.add('ActivityTaskStarted', { scheduledEventId: this.int64(scheduled), identity: 'worker@host', attempt: 1 });
    this.add('ActivityTaskCompleted', {
      result: this.payloads(result),
      scheduledEventId: this.int64(scheduled),
      startedEventId: this.int64(started),
      identity: 'worker@host',
    });
    return this.workflowTask();
  }

  marker(name: string, details: Record<string, Json[]>): this {
    this.add('MarkerRecorded', {
      markerName: name,
      details: Object.fromEntries(Object.entries(details).map(([key, list]) => [key, { payloads: list }])),
      workflowTaskCompletedEventId: this.int64(this.lastTaskCompleted),
    });
    return this;
  }

  continueAsNew(newRunId: string, input: Json[]): Json {
    this.add('WorkflowExecutionContinuedAsNew', {
      newExecutionRunId: newRunId,
      workflowType: { name: this.start.workflowType },
      taskQueue: this.taskQueue(),
      input: this.payloads(input),
      workflowTaskCompletedEventId: this.int64(this.lastTaskCompleted),
      initiator: this.enumValue('CONTINUE_AS_NEW_INITIATOR_', 'Workflow'),
    });
    return this.history();
  }

  complete(result: Json[]): Json {
    this.add('WorkflowExecutionCompleted', {
      result: this.payloads(result),
      workflowTaskCompletedEventId: this.int64(this.lastTaskCompleted),
      ...this.unset('newExecutionRunId'),
    });
    return this.history();
  }

  terminate(reason: string, identity: string): Json {
    this.add('WorkflowExecutionTerminated', { reason, identity, ...this.unset('details') });
    return this.history();
  }

  /** The history as it stands (a workflow still open, e.g. one whose task keeps failing). */
  history(): Json {
    return { events: this.events };
  }
}

const GO: Dialect = { enums: 'pascal', int64: 'number', nulls: false };
const JAVA: Dialect = { enums: 'pascal', int64: 'string', nulls: false };
const DOTNET: Dialect = { enums: 'pascal', int64: 'string', nulls: true };
const PROTO3: Dialect = { enums: 'constant', int64: 'string', nulls: false };

/** Bytes of the large payload: past the 2 MiB blob limit, as a server with the limit raised keeps it. */
export const LARGE_PAYLOAD_BYTES = 2 * 1024 * 1024 + 4096;

const runId = (n: number): string => `a1c2d3e4-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A run's first execution, through its first workflow task. */
function begin(dialect: Dialect, workflowType: string, workflowId: string, run: number, input: Json): SdkHistory {
  return new SdkHistory(dialect, { workflowType, workflowId, runId: runId(run), taskQueue: workflowId, input: [input] }).workflowTask();
}

/**
 * Six runs of other workflows, one per SDK shape and one way to break (file name -> JSON):
 * Go's task failing in a loop, Java's payload past the blob limit, .NET's chain of two executions
 * terminated by the history service, Python's newest-first history that completes, TypeScript's
 * API response wrapper terminated by an operator.
 */
export function sdkFixtures(): Record<string, Json> {
  const go = begin(GO, 'OrderWorkflow', 'order-7781', 1, payload.json({ orderId: 7781 }))
    .marker('Version', { 'change-id': [payload.json('charge-v2')], version: [payload.json(1)] })
    .activity('ChargeCard', [payload.json({ cents: 1299 })], [payload.json({ ok: true })]);
  for (let attempt = 1; attempt <= 4; attempt++) {
    go.failedWorkflowTask('NonDeterministicError', 'unknown command CommandType: ScheduleActivityTask', attempt);
  }

  const java = begin(JAVA, 'SubscriptionWorkflow', 'subscription-42', 2, payload.json('customer-42'))
    .marker('Version', { changeId: [payload.json('invoice-paging')], version: [payload.json(1)] })
    .activity('FetchInvoices', [payload.json('customer-42'), payload.json(500)], [payload.json('x'.repeat(LARGE_PAYLOAD_BYTES))])
    .complete([payload.nothing()]);

  const dotnet1 = begin(DOTNET, 'IngestWorkflow', 'ingest-2025-03', 3, payload.json({ Offset: 0 }))
    .activity('ProcessBatch', [payload.json({ Offset: 0 })], [payload.json({ Next: 1000 })])
    .continueAsNew(runId(4), [payload.json({ Offset: 1000 })]);
  const dotnet2 = new SdkHistory(DOTNET, {
    workflowType: 'IngestWorkflow',
    workflowId: 'ingest-2025-03',
    runId: runId(4),
    firstRunId: runId(3),
    continuedFromRunId: runId(3),
    taskQueue: 'ingest-2025-03',
    input: [payload.json({ Offset: 1000 })],
  })
    .workflowTask()
    .activity('ProcessBatch', [payload.json({ Offset: 1000 })], [payload.json({ Next: 2000 })])
    .terminate('Workflow history size exceeds limit.', 'history-service');

  const python = begin(PROTO3, 'GreetingWorkflow', 'greeting-1', 5, payload.json('World'))
    .activity('compose_greeting', [payload.protobufJson('temporal.api.common.v1.WorkflowType', { name: 'Hello' })], [payload.nothing()])
    .complete([payload.json('Hello, World!')]);
  const newestFirst = { events: [...(python.events as Json[])].reverse() };

  const typescript = begin(PROTO3, 'chatAgentWorkflow', 'chat-9', 6, payload.json({ prompt: 'hi' }))
    .marker('core_patch', { 'patch-data': [payload.json({ id: 'streaming', deprecated: false })] })
    .activity('invokeModel', [payload.bytes(Buffer.from('prompt bytes'))], [payload.bytes(Buffer.alloc(300_000, 7))])
    .terminate('stuck on a tool call', 'operator@example.com');

  return {
    'go-order-wft-loop.json': go.history(),
    'java-subscription-large-payload.json': java,
    'dotnet-ingest-execution-1.json': dotnet1,
    'dotnet-ingest-execution-2.json': dotnet2,
    'python-greeting-newest-first.json': newestFirst,
    'typescript-chat-agent.json': { history: typescript, nextPageToken: null, archived: false },
  };
}
