/**
 * A run's record for the reports, read from its histories through the checks' run view: the
 * same reading the invariants judge, so the charts and the verdict never disagree.
 */
import { breakOf, type Execution, type InvariantResult, incidentsOf, type RunView } from '../checks/index.ts';
import type { CompactedData, CompactionFailedData } from '../contract/kernel-api.ts';
import type { BinaryName } from '../kernel/index.ts';
import type { CompactionRecord, ExecutionRecord, ReplayRecord, RunRecord, TurnRecord } from '../result/index.ts';

export interface RunRecordInput {
  workflowId: string;
  binary: BinaryName;
  startedAt: Date;
  finishedAt: Date;
  /** The run's histories as the checks read them. */
  view: RunView;
  historyBytes: number[];
  temporalRunIds: string[];
  invariants: InvariantResult[];
  /** Where its histories were replayed, and how. */
  replays?: ReplayRecord[];
  /** Why longrun itself stopped the run, if it did (retry loop, timeout, interrupted). */
  stoppedBecause?: string;
}

function closedBy(execution: Execution): ExecutionRecord['closedBy'] {
  return execution.end ? execution.end.kind : 'running';
}

/** A termination's reason, or a failure's messages (outermost first, with its causes). */
function endReason(execution: Execution): string | undefined {
  const attrs = execution.end?.event.attrs;
  if (attrs?.kind !== 'workflow-closed') return undefined;
  return attrs.reason || attrs.failure?.text || undefined;
}

function elapsedMs(from?: string, to?: string): number | undefined {
  if (!from || !to) return undefined;
  return Date.parse(to) - Date.parse(from);
}

export function buildRunRecord(input: RunRecordInput): RunRecord {
  const { view } = input;
  const histories = view.executions.map((execution) => execution.history);
  const executions: ExecutionRecord[] = view.executions.map((execution, i) => {
    const reason = endReason(execution);
    return {
      temporalRunId: input.temporalRunIds[i] ?? '',
      historyBytes: input.historyBytes[i] ?? 0,
      events: execution.history.events.length,
      closedBy: closedBy(execution),
      ...(reason ? { reason } : {}),
    };
  });
  const turns: TurnRecord[] = view.executions.flatMap((execution) =>
    execution.turns.map((turn) => {
      const call = turn.calls.at(-1);
      const request = call?.input.kind === 'call-model' ? call.input.request : undefined;
      const latencyMs = elapsedMs(call?.scheduled.time, call?.closed?.time);
      return {
        turn: turn.number ?? turn.index + 1,
        execution: execution.number,
        requestBytes: request?.bytes ?? 0,
        ...(latencyMs !== undefined ? { latencyMs } : {}),
      };
    }),
  );
  const compactions: CompactionRecord[] = view.journal.flatMap(({ event }): CompactionRecord[] => {
    if (event.type === 'context.compacted') {
      const data = event.data as unknown as CompactedData;
      return [
        {
          turn: event.turn,
          ok: true,
          bytesBefore: data.bytes_before,
          bytesAfter: data.bytes_after,
          kept: data.kept,
          dropped: data.dropped,
        },
      ];
    }
    if (event.type === 'context.compaction_failed') {
      return [{ turn: event.turn, ok: false, reason: (event.data as unknown as CompactionFailedData).reason }];
    }
    return [];
  });
  const last = executions.at(-1);
  const stopped = input.stoppedBecause;
  const broke = breakOf(view);
  return {
    runId: view.input.runId,
    workflowId: input.workflowId,
    binary: input.binary,
    outcome: last?.closedBy ?? 'running',
    startedAt: input.startedAt.toISOString(),
    durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
    executions: stopped && last ? [...executions.slice(0, -1), { ...last, reason: last.reason ?? stopped }] : executions,
    turns,
    compactions,
    workflowTaskFailures: histories.reduce((n, h) => n + h.events.filter((e) => e.type === 'WorkflowTaskFailed').length, 0),
    invariants: input.invariants,
    ...(input.replays ? { replays: input.replays } : {}),
    incidents: incidentsOf(histories),
    ...(broke ? { broke } : {}),
    historyFiles: [],
  };
}
