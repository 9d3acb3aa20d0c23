/**
 * `--ui`: the server a run used stays up after its report, with Temporal's Web UI on it, so a
 * failing run's history and its state card open in the UI the team already uses. The server is
 * started here rather than by the runner, so the runner does not tear it down.
 */
import { type Environment, startEnvironment, startTemporalUi } from '../environment/index.ts';
import type { Summary } from '../result/index.ts';
import type { Scenario } from '../scenario/index.ts';
import { UsageError } from './usage-error.ts';

/** The server to run `scenario` on and keep for the UI. */
export async function environmentForUi(scenario: Scenario): Promise<Environment> {
  if (scenario.chaos.some((step) => step.action === 'restart-server')) {
    throw new UsageError(
      `--ui: scenario ${scenario.name} restarts the server (chaos restart-server), so it needs a server of its own; run it without --ui`,
    );
  }
  return startEnvironment(scenario.server);
}

/** Serves the UI on `env` until SIGINT or SIGTERM, then stops the UI and the server. */
export async function serveUiUntilStopped(env: Environment, summary: Summary, port: number | undefined): Promise<void> {
  try {
    const ui = await startTemporalUi(env, port !== undefined ? { port } : {});
    const failing = summary.runs.filter((run) => run.invariants.some((i) => i.status === 'fail'));
    process.stderr.write(
      [
        `longrun: Temporal UI at ${ui.url} (namespace ${env.namespace}); the server stays up until Ctrl-C`,
        ...failing.map((run) => `  ${run.workflowId}: ${ui.workflowUrl(run.workflowId)}`),
        '',
      ].join('\n'),
    );
    await new Promise<void>((stopped) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        stopped();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await ui.stop();
  } finally {
    await env.teardown();
  }
}
