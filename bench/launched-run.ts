/** A run the benchmark judges again, as the runner launched it, from its record. */
import type { RunRecord } from '../src/result/index.ts';
import type { LaunchedRun } from '../src/runner/launch.ts';

export function launchedOf(record: RunRecord): LaunchedRun {
  return {
    runId: record.runId,
    workflowId: record.workflowId,
    firstRunId: record.executions[0]?.temporalRunId ?? '',
    binary: record.binary,
    startedAt: new Date(record.startedAt),
    args: [],
  };
}
