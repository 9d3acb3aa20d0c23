/**
 * Fetches every execution of a run, following its ContinueAsNew links from the first, so the
 * run is judged as one. For the judging a history (up to hundreds of MB) is never held whole:
 * the checks read each page as it arrives, and what is kept of it is the replay copy
 * (replay-copy.ts), without the activities' inputs when the replay does not read them (most of
 * the bytes).
 */
import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { historyLoader, type LoadedHistory, type LoadOptions } from '../checks/index.ts';
import { replayCopy } from './replay-copy.ts';

export interface FetchedExecution {
  temporalRunId: string;
  history: temporal.api.history.v1.IHistory;
  /** The history's size as the server counts it against its history-size limit. */
  bytes: number;
}

/** An execution as the judging keeps it. */
export interface JudgedExecution {
  temporalRunId: string;
  /** The history as the checks read it. */
  loaded: LoadedHistory;
  /** Every event, for the replay and the harness: without the activities' inputs unless `activityInputs`. */
  replayable: temporal.api.history.v1.IHistory;
  bytes: number;
}

export interface JudgingFetchOptions {
  /** How the checks load execution `index` (0-based). */
  loadOptions(index: number): LoadOptions;
  /** Keep the activities' inputs in the replay copy (for a replayer that may compare them). */
  activityInputs: boolean;
  /** Fetches the stored payloads a page's External Storage references name, before the page is read (`loadOptions` holds them). */
  readStored?: (events: readonly temporal.api.history.v1.IHistoryEvent[]) => Promise<void>;
}

/** At most this many executions are followed: a run that continues as new for ever is cut here. */
export const MAX_EXECUTIONS = 10_000;
/**
 * What a page should hold on average: a page is held while it is read, so it stays in the
 * megabytes, and a small run's history comes in one or two pages rather than a round trip per
 * few events (a p50 run: 10 pages of 32 events took 105-215 ms to fetch, 2 pages 60-95 ms).
 */
const PAGE_BYTES = 4 * 1024 * 1024;
/**
 * Events per page, the bounds: a max-size run's model requests (up to the 2 MiB blob limit
 * each) are ~40% of its events, so even at its floor a page stays in the tens of MB.
 */
const MIN_PAGE_EVENTS = 32;
const MAX_PAGE_EVENTS = 1_000;

/** Events per page for a history of this size, from the server's own count of it. */
export function pageEvents(historyBytes: number, historyLength: number): number {
  if (historyLength <= 0 || historyBytes <= 0) return MIN_PAGE_EVENTS;
  const events = Math.floor(PAGE_BYTES / (historyBytes / historyLength));
  return Math.min(MAX_PAGE_EVENTS, Math.max(MIN_PAGE_EVENTS, events));
}

/** Every execution's history, whole. */
export function fetchRunHistories(client: Client, workflowId: string, firstRunId: string): Promise<FetchedExecution[]> {
  return followChain(client, workflowId, firstRunId, async ({ runId }) => {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    return { history, last: history.events?.at(-1) };
  });
}

/** Every execution read by the checks page by page, and its replay copy. */
export function fetchRunForJudging(
  client: Client,
  workflowId: string,
  firstRunId: string,
  options: JudgingFetchOptions,
): Promise<JudgedExecution[]> {
  return followChain(client, workflowId, firstRunId, async ({ runId, index, bytes, length }) => {
    const reading = new ExecutionReading(index, options);
    const maximumPageSize = pageEvents(bytes, length);
    let nextPageToken: Uint8Array | null | undefined;
    do {
      const page = await client.workflowService.getWorkflowExecutionHistory({
        namespace: client.options.namespace,
        execution: { workflowId, runId },
        maximumPageSize,
        ...(nextPageToken ? { nextPageToken } : {}),
      });
      const events = page.history?.events ?? [];
      await options.readStored?.(events);
      reading.add(events);
      nextPageToken = page.nextPageToken;
    } while (nextPageToken && nextPageToken.length > 0);
    return reading.finish();
  });
}

/** One execution as the judging reads it, page after page: the checks' loader and the replay copy. */
export class ExecutionReading {
  private readonly loader: ReturnType<typeof historyLoader>;
  private readonly events: temporal.api.history.v1.IHistoryEvent[] = [];
  private readonly activityInputs: boolean;

  constructor(index: number, options: JudgingFetchOptions) {
    this.loader = historyLoader(options.loadOptions(index));
    this.activityInputs = options.activityInputs;
  }

  add(page: readonly temporal.api.history.v1.IHistoryEvent[]): void {
    for (const event of page) this.loader.add(event);
    for (const event of replayCopy(page, { activityInputs: this.activityInputs })) this.events.push(event);
  }

  /** The run id of the execution this one continued as, once its last event is read. */
  get continuedAs(): string | undefined {
    return this.events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }

  finish(): {
    loaded: LoadedHistory;
    replayable: temporal.api.history.v1.IHistory;
    last: temporal.api.history.v1.IHistoryEvent | undefined;
  } {
    return { loaded: this.loader.finish(), replayable: { events: this.events }, last: this.events.at(-1) };
  }
}

/**
 * An execution's history size and event count, the server's own count (what its history-size
 * limit is judged by), rather than encoding a history of up to hundreds of MB again.
 */
export async function executionSize(client: Client, workflowId: string, runId: string): Promise<{ bytes: number; length: number }> {
  const description: WorkflowExecutionDescription = await client.workflow.getHandle(workflowId, runId).describe();
  const info = description.raw.workflowExecutionInfo;
  return { bytes: Number(info?.historySizeBytes ?? 0), length: Number(info?.historyLength ?? 0) };
}

type LastEvent = { last: temporal.api.history.v1.IHistoryEvent | undefined };

/** An execution to fetch, with the server's count of its history. */
interface ExecutionToFetch {
  runId: string;
  index: number;
  bytes: number;
  length: number;
}

async function followChain<T extends LastEvent>(
  client: Client,
  workflowId: string,
  firstRunId: string,
  fetchOne: (execution: ExecutionToFetch) => Promise<T>,
): Promise<(Omit<T, 'last'> & { temporalRunId: string; bytes: number })[]> {
  const executions: (Omit<T, 'last'> & { temporalRunId: string; bytes: number })[] = [];
  let runId: string | undefined = firstRunId;
  while (runId && executions.length < MAX_EXECUTIONS) {
    const { bytes, length } = await executionSize(client, workflowId, runId);
    const { last, ...fetched } = await fetchOne({ runId, index: executions.length, bytes, length });
    executions.push({ temporalRunId: runId, ...fetched, bytes });
    runId = last?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return executions;
}
