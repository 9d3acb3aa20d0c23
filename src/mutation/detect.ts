/**
 * StrykerJS's test command: runs the detection suite on one server and exits 1 when any
 * expectation fails (the mutant is killed), 0 when all hold (it survived). With `--all` it runs
 * every scenario past the first failure and prints each failed invariant's first evidence: a
 * broken kernel tried by hand (docs/blind-trials/). Stryker keeps a
 * run's output only for a killed mutant; with MUTATION_LOG_DIR set, every run's output is also
 * written there as `<mutant id>.log` (`dry-run.log` for the unmutated run), so that a survivor's
 * run can be read after.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEnvironment } from '../environment/index.ts';
import { MUTANT_SERVER } from '../mutants/catalogue.ts';
import { runScenario } from '../runner/run-scenario.ts';
import { DETECTION_SCENARIOS } from './detection-suite.ts';

const output: string[] = [];
const say = (line: string) => {
  output.push(line);
  console.log(line);
};

// Where a mutant's time goes, in its log: the process's start (node and every module), the server's, each scenario's, the teardown's.
const sinceProcessBegan = () => `${Math.round(process.uptime() * 1000)} ms since the process began`;
say(`modules loaded: ${sinceProcessBegan()}`);
const serverStarting = Date.now();
const env = await startEnvironment({ dynamicConfig: MUTANT_SERVER });
say(`server started in ${Date.now() - serverStarting} ms (${sinceProcessBegan()})`);
const all = process.argv.includes('--all');
let killed = false;
try {
  const started = Date.now();
  // One at a time: the mocks of two scenarios in one process would intercept each other's requests.
  for (const scenario of DETECTION_SCENARIOS) {
    const scenarioStarted = Date.now();
    const summary = await runScenario(scenario, { environment: env });
    for (const e of summary.expectations) if (!e.met) say(`${summary.scenario}: ${e.detail}`);
    if (all && !summary.passed) {
      for (const run of summary.runs)
        for (const failed of run.invariants.filter((i) => i.status === 'fail')) say(`  ${failed.id}: ${failed.evidence[0] ?? ''}`);
    }
    say(`${summary.scenario} ${summary.passed ? 'passed' : 'FAILED'} ${Date.now() - scenarioStarted} ms`);
    if (!summary.passed) {
      killed = true;
      // One failure kills the mutant: the rest would only cost time.
      if (!all) break;
    }
  }
  say(`${killed ? 'killed' : 'every detection scenario passed'} in ${Date.now() - started} ms`);
} finally {
  const teardown = Date.now();
  await env.teardown();
  say(`server stopped in ${Date.now() - teardown} ms (${sinceProcessBegan()})`);
}
const logDir = process.env.MUTATION_LOG_DIR;
if (logDir) {
  mkdirSync(logDir, { recursive: true });
  const mutant = process.env.__STRYKER_ACTIVE_MUTANT__ ?? 'dry-run';
  writeFileSync(join(logDir, `${mutant}.log`), `${output.join('\n')}\n`);
}
process.exit(killed ? 1 : 0);
