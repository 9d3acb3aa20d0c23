/**
 * Reading the kernel's histories in its own integration tests: the executions of a run in
 * order, the inputs and results of its activities, its journal and whether the journal chains.
 * (The harness's checks read histories on their own, without the kernel; this is only for
 * the kernel to see that it does what the spec says.)
 */
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { journalHash } from '../../contract/journal-hash.ts';
import type { JournalAppendInput, JournalEvent, RunInput } from '../../contract/kernel-api.ts';
import { GENESIS_HASH } from '../../contract/kernel-api.ts';

export type History = temporal.api.history.v1.IHistory;
type Payloads = temporal.api.common.v1.IPayloads | null | undefined;

/** The histories of every execution of a run, first to last, following ContinueAsNew. */
export async function executionChain(client: Client, workflowId: string, firstRunId: string): Promise<History[]> {
  const histories: History[] = [];
  let runId: string | undefined = firstRunId;
  while (runId) {
    const history = await fetchHistory(client, workflowId, runId);
    histories.push(history);
    runId = continuedAsNew(history)?.newExecutionRunId ?? undefined;
  }
  return histories;
}

/**
 * One execution's history in small pages: a page of the SDK's default size can pass gRPC's
 * 4 MiB message limit when every turn's request is in it.
 */
export async function fetchHistory(client: Client, workflowId: string, runId: string): Promise<History> {
  const events: temporal.api.history.v1.IHistoryEvent[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page: temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryResponse =
      await client.workflowService.getWorkflowExecutionHistory({
        namespace: client.options.namespace,
        execution: { workflowId, runId },
        maximumPageSize: 8,
        nextPageToken,
      });
    events.push(...(page.history?.events ?? []));
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return { events };
}

export function continuedAsNew(history: History) {
  return history.events?.find((event) => event.workflowExecutionContinuedAsNewEventAttributes)
    ?.workflowExecutionContinuedAsNewEventAttributes;
}

/** The input that ContinueAsNew carried into the next execution. */
export function continueAsNewInput(history: History): RunInput | undefined {
  const attributes = continuedAsNew(history);
  return attributes ? firstPayload<RunInput>(attributes.input) : undefined;
}

export interface ActivityRecord<I, R> {
  scheduledEventId: number;
  input: I;
  /** Undefined while the activity has not completed (or when it failed). */
  result: R | undefined;
}

/** Every activity of a type in a history, in scheduling order, with its result when it completed. */
export function activities<I, R>(history: History, activityType: string): ActivityRecord<I, R>[] {
  const events = history.events ?? [];
  const results = new Map<number, Payloads>();
  for (const event of events) {
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed) results.set(Number(completed.scheduledEventId), completed.result);
  }
  return events.flatMap((event) => {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name !== activityType) return [];
    const id = Number(event.eventId);
    const result = results.get(id);
    return [
      {
        scheduledEventId: id,
        input: firstPayload<I>(scheduled.input) as I,
        result: result ? firstPayload<R>(result) : undefined,
      },
    ];
  });
}

/** Scheduled activities of a type with no completion in the history. */
export function pendingActivities(history: History, activityType: string): number {
  return activities(history, activityType).filter((record) => record.result === undefined).length;
}

export function journalOf(histories: readonly History[]): JournalEvent[] {
  return histories.flatMap((history) =>
    activities<JournalAppendInput, unknown>(history, 'journal.append').flatMap((record) => record.input.events),
  );
}

/** Why the journal does not form one chain from the genesis hash, or null when it does. */
export function journalChainProblem(events: readonly JournalEvent[]): string | null {
  let previous = GENESIS_HASH;
  for (const [index, event] of events.entries()) {
    if (event.seq !== index + 1) return `event ${index} has seq ${event.seq}, expected ${index + 1}`;
    if (event.prevHash !== previous) return `event ${event.seq} (${event.type}) does not name the hash of the one before`;
    previous = journalHash(event);
  }
  return null;
}

function firstPayload<T>(payloads: Payloads): T | undefined {
  const payload = payloads?.payloads?.[0];
  return payload ? defaultPayloadConverter.fromPayload<T>(payload as Parameters<typeof defaultPayloadConverter.fromPayload>[0]) : undefined;
}
