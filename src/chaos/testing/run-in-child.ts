/**
 * Runs a scenario (given as JSON) with nothing listening for signals, as a library user's script
 * would, and prints every chaos event as a JSON line: the SIGTERM test's subject.
 *
 *   node --import tsx src/chaos/testing/run-in-child.ts '<Scenario as JSON>'
 */
import { runScenario } from '../../runner/run-scenario.ts';
import { scenarioSchema } from '../../scenario/index.ts';

const scenario = scenarioSchema.parse(JSON.parse(process.argv[2] ?? ''));
await runScenario(scenario, { onChaosEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`) });
process.stdout.write('finished\n');
