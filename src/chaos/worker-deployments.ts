/**
 * The server's side of a versioned upgrade (Worker Versioning): which build of a task queue's
 * deployment is current, and whether runs are still open on a build. A build becomes a version
 * of the deployment once one of its workers has polled (the server registers it in the
 * background), so setting it current is retried until the server knows it.
 */
import type { Client } from '@temporalio/client';
import { sleep } from '../shared/sleep.ts';

/** How long a build that just polled may take to be registered as a version of its deployment. */
const REGISTER_WAIT_MS = 30_000;
/** After `close`, how long a drain still waits: visibility sees the last run close a moment after it does. */
const CLOSE_GRACE_MS = 5_000;
/** Between two looks at the server (the registration, the runs open on a build). */
const POLL_MS = 250;

export class WorkerDeployments {
  /** When `close` was called. */
  private closedAt: number | undefined;

  constructor(
    private readonly client: Client,
    private readonly namespace: string,
  ) {}

  /** Makes `buildId` the current version of `deployment`: new runs, and runs that move, go to it. */
  async setCurrent(deployment: string, buildId: string): Promise<void> {
    const started = Date.now();
    for (;;) {
      try {
        await this.client.workflowService.setWorkerDeploymentCurrentVersion({
          namespace: this.namespace,
          deploymentName: deployment,
          buildId,
          identity: 'longrun-chaos',
        });
        return;
      } catch (error) {
        if (this.closedAt !== undefined || Date.now() - started > REGISTER_WAIT_MS) {
          throw new Error(`cannot make ${deployment}:${buildId} the current version: ${(error as Error).message.split('\n')[0]}`);
        }
        await sleep(POLL_MS);
      }
    }
  }

  /**
   * Open runs whose workflow tasks go to `buildId` of `deployment` (pinned to it, or not yet moved
   * off it), from visibility's `TemporalWorkerDeploymentVersion`.
   */
  async openRuns(deployment: string, buildId: string): Promise<number> {
    const query = `TemporalWorkerDeploymentVersion = '${deployment}:${buildId}' AND ExecutionStatus = 'Running'`;
    return (await this.client.workflow.count(query)).count;
  }

  /**
   * Resolves once no run is open on the build (the runs, not a fixed time, decide how long its
   * workers must stay), with how many were open at the start; within seconds after `close`.
   */
  async drained(deployment: string, buildId: string): Promise<{ openAtStart: number; stoppedEarly: boolean }> {
    const openAtStart = await this.openRuns(deployment, buildId);
    let open = openAtStart;
    const givenUp = () => this.closedAt !== undefined && Date.now() - this.closedAt > CLOSE_GRACE_MS;
    while (open > 0 && !givenUp()) {
      await sleep(POLL_MS);
      open = await this.openRuns(deployment, buildId);
    }
    return { openAtStart, stoppedEarly: open > 0 };
  }

  /** The session is ending: a drain under way gives up within seconds. */
  close(): void {
    this.closedAt ??= Date.now();
  }
}
