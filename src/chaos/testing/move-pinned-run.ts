/**
 * For the Worker Versioning tests: the deploy that must be caught. Once a versioned upgrade has
 * made `to` the current version of a deployment, one run still pinned to `from` is moved to `to`
 * in the middle of its execution by a pinned versioning override (UpdateWorkflowExecutionOptions),
 * so `to`'s workers take over a history `from` wrote: what versioning.pinned-build fails.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { sleep } from '../../shared/sleep.ts';

const POLL_MS = 100;
/** PinnedOverrideBehavior.PINNED_OVERRIDE_BEHAVIOR_PINNED (the proto package's value exports do not load under plain Node ESM). */
const PINNED = 1 as temporal.api.workflow.v1.VersioningOverride.PinnedOverrideBehavior;

/** Resolves with the workflow id it moved; rejects after `timeoutMs` without a run to move. */
export async function movePinnedRun(client: Client, namespace: string, from: string, to: string, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { workerDeployments } = await client.workflowService.listWorkerDeployments({ namespace });
    for (const deployment of workerDeployments ?? []) {
      if (deployment.routingConfig?.currentDeploymentVersion?.buildId !== to || !deployment.name) continue;
      const query = `TemporalWorkerDeploymentVersion = '${deployment.name}:${from}' AND ExecutionStatus = 'Running'`;
      for await (const workflow of client.workflow.list({ query })) {
        await client.workflowService.updateWorkflowExecutionOptions({
          namespace,
          workflowExecution: { workflowId: workflow.workflowId },
          workflowExecutionOptions: {
            versioningOverride: {
              pinned: {
                behavior: PINNED,
                version: { deploymentName: deployment.name, buildId: to },
              },
            },
          },
          updateMask: { paths: ['versioning_override'] },
        });
        return workflow.workflowId;
      }
    }
    await sleep(POLL_MS);
  }
  throw new Error(`no run pinned to ${from} to move to ${to} within ${timeoutMs / 1000} s`);
}
