/**
 * Fetches every execution of a run, following its ContinueAsNew links from the first, so the
 * run is judged as one.
 */
import type { Client } from '@temporalio/client';
import proto, { type temporal } from '@temporalio/proto';

export interface FetchedExecution {
  temporalRunId: string;
  history: temporal.api.history.v1.IHistory;
  /** Encoded (protobuf) size of the history: what Temporal's history-size limit counts. */
  bytes: number;
}

/** At most this many executions are followed: a run that continues as new for ever is cut here. */
const MAX_EXECUTIONS = 10_000;

export async function fetchRunHistories(client: Client, workflowId: string, firstRunId: string): Promise<FetchedExecution[]> {
  const executions: FetchedExecution[] = [];
  let runId: string | undefined = firstRunId;
  while (runId && executions.length < MAX_EXECUTIONS) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const bytes = proto.temporal.api.history.v1.History.encode(history).finish().length;
    executions.push({ temporalRunId: runId, history, bytes });
    const last = history.events?.at(-1);
    runId = last?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return executions;
}
