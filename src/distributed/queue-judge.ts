/**
 * The side of a scenario run that judges on a harness task queue: each run that ended is handed
 * to a judging workflow of its own, whose id the run fixes, so that a run is judged once however
 * often its hand-over is tried (the id is never reused), and its record is waited for.
 */
import { Client, WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import type { RunRecord } from '../result/index.ts';
import type { JudgingRequest, RunJudge } from '../runner/judged-elsewhere.ts';
import { judgingWorkflowId } from './harness-ids.ts';
import { judgingInputOf } from './judging-activity.ts';

/** The workflow type of a run's judging (judging-workflow.ts). */
export const JUDGING_WORKFLOW_TYPE = 'judgeRunWorkflow';

export { judgingWorkflowId };

/**
 * Judges every run on `taskQueue`, served by `longrun harness-worker`s on the runs' cluster: in
 * `namespace` (a namespace of the harness's own), else in the runs' namespace.
 */
export function queueJudge(taskQueue: string, namespace?: string): RunJudge {
  let harness: Client | undefined;
  return async (request: JudgingRequest): Promise<RunRecord> => {
    // The runs' connection, in the harness's namespace.
    harness ??= namespace ? new Client({ connection: request.client.connection, namespace }) : request.client;
    const client = harness;
    const workflowId = judgingWorkflowId(request.scenario, request.run.workflowId);
    let handle: WorkflowHandle;
    try {
      handle = await client.workflow.start(JUDGING_WORKFLOW_TYPE, {
        taskQueue,
        workflowId,
        args: [judgingInputOf(request)],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (error) {
      // Started already (a start whose answer was lost): its one judging is the one waited for.
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      handle = client.workflow.getHandle(workflowId);
    }
    return (await handle.result()) as RunRecord;
  };
}
