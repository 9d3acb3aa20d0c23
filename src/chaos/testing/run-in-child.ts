/**
 * Runs a scenario (given as JSON) as a library user's script would, and prints every chaos
 * event as a JSON line: the SIGTERM test's subject. The library sets no signal handler, so the
 * script has its own: SIGTERM kills the chaos processes at once and aborts the scenario, and
 * once the runner has cleaned up, the signal is raised again to end the process by SIGTERM.
 *
 *   node --import tsx src/chaos/testing/run-in-child.ts '<Scenario as JSON>'
 */
import { runScenario } from '../../runner/run-scenario.ts';
import { scenarioSchema } from '../../scenario/index.ts';
import { killAllChildren } from '../child-processes.ts';

const scenario = scenarioSchema.parse(JSON.parse(process.argv[2] ?? ''));
const terminated = new AbortController();
process.once('SIGTERM', () => {
  killAllChildren();
  terminated.abort();
});
try {
  await runScenario(scenario, {
    signal: terminated.signal,
    onChaosEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
  });
} finally {
  if (terminated.signal.aborted) process.kill(process.pid, 'SIGTERM');
}
if (!terminated.signal.aborted) process.stdout.write('finished\n');
