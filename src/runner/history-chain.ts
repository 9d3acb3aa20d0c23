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
}

/** At most this many executions are followed: a run that continues as new for ever is cut here. */
const MAX_EXECUTIONS = 10_000;
/**
 * Events per page: a page is held while it is read, and a max-size run's model requests (up to
 * the 2 MiB blob limit each) are ~40% of its events, so a page stays in the tens of MB.
 */
const PAGE_EVENTS = 32;

/** Every execution's history, whole. */
export function fetchRunHistories(client: Client, workflowId: string, firstRunId: string): Promise<FetchedExecution[]> {
  return followChain(client, workflowId, firstRunId, async (runId) => {
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
  return followChain(client, workflowId, firstRunId, async (runId, index) => {
    const loader = historyLoader(options.loadOptions(index));
    const events: temporal.api.history.v1.IHistoryEvent[] = [];
    let nextPageToken: Uint8Array | null | undefined;
    do {
      const page = await client.workflowService.getWorkflowExecutionHistory({
        namespace: client.options.namespace,
        execution: { workflowId, runId },
        maximumPageSize: PAGE_EVENTS,
        ...(nextPageToken ? { nextPageToken } : {}),
      });
      const pageEvents = page.history?.events ?? [];
      for (const event of pageEvents) loader.add(event);
      for (const event of replayCopy(pageEvents, { activityInputs: options.activityInputs })) events.push(event);
      nextPageToken = page.nextPageToken;
    } while (nextPageToken && nextPageToken.length > 0);
    return { loaded: loader.finish(), replayable: { events }, last: events.at(-1) };
  });
}

type LastEvent = { last: temporal.api.history.v1.IHistoryEvent | undefined };

async function followChain<T extends LastEvent>(
  client: Client,
  workflowId: string,
  firstRunId: string,
  fetchOne: (runId: string, index: number) => Promise<T>,
): Promise<(Omit<T, 'last'> & { temporalRunId: string; bytes: number })[]> {
  const executions: (Omit<T, 'last'> & { temporalRunId: string; bytes: number })[] = [];
  let runId: string | undefined = firstRunId;
  while (runId && executions.length < MAX_EXECUTIONS) {
    // The server's own count, rather than encoding a history of up to hundreds of MB again.
    const [{ last, ...fetched }, description]: [T, WorkflowExecutionDescription] = await Promise.all([
      fetchOne(runId, executions.length),
      client.workflow.getHandle(workflowId, runId).describe(),
    ]);
    const bytes = Number(description.raw.workflowExecutionInfo?.historySizeBytes ?? 0);
    executions.push({ temporalRunId: runId, ...fetched, bytes });
    runId = last?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return executions;
}
