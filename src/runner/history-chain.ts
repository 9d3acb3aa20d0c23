/**
 * Fetches every execution of a run, following its ContinueAsNew links from the first, so the
 * run is judged as one.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

export interface FetchedExecution {
  temporalRunId: string;
  history: temporal.api.history.v1.IHistory;
  /** The history's size as the server counts it against its history-size limit. */
  bytes: number;
}

/** At most this many executions are followed: a run that continues as new for ever is cut here. */
const MAX_EXECUTIONS = 10_000;

export async function fetchRunHistories(client: Client, workflowId: string, firstRunId: string): Promise<FetchedExecution[]> {
  const executions: FetchedExecution[] = [];
  let runId: string | undefined = firstRunId;
  while (runId && executions.length < MAX_EXECUTIONS) {
    const handle: WorkflowHandle = client.workflow.getHandle(workflowId, runId);
    // The server's own count, rather than encoding a history of up to hundreds of MB again.
    const [history, description] = await Promise.all([handle.fetchHistory(), handle.describe()]);
    const bytes = Number(description.raw.workflowExecutionInfo?.historySizeBytes ?? 0);
    executions.push({ temporalRunId: runId, history, bytes });
    const last = history.events?.at(-1);
    runId = last?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return executions;
}
