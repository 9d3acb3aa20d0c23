/**
 * StrykerJS's test command: runs the detection suite on one server and exits 1 when any
 * expectation fails (the mutant is killed), 0 when all hold (it survived).
 */
import { startEnvironment } from '../environment/index.ts';
import { MUTANT_SERVER } from '../mutants/catalogue.ts';
import { runScenario } from '../runner/run-scenario.ts';
import { DETECTION_SCENARIOS } from './detection-suite.ts';

const env = await startEnvironment({ dynamicConfig: MUTANT_SERVER });
let killed = false;
try {
  const started = Date.now();
  // One at a time: the mocks of two scenarios in one process would intercept each other's requests.
  for (const scenario of DETECTION_SCENARIOS) {
    const scenarioStarted = Date.now();
    const summary = await runScenario(scenario, { environment: env });
    for (const e of summary.expectations) if (!e.met) console.log(`${summary.scenario}: ${e.detail}`);
    console.log(`${summary.scenario} ${summary.passed ? 'passed' : 'FAILED'} ${Date.now() - scenarioStarted} ms`);
    if (!summary.passed) {
      killed = true;
      // One failure kills the mutant: the rest would only cost time.
      break;
    }
  }
  console.log(`${killed ? 'killed' : 'every detection scenario passed'} in ${Date.now() - started} ms`);
} finally {
  await env.teardown();
}
process.exit(killed ? 1 : 0);
