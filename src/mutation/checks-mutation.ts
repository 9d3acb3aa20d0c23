/**
 * `npm run mutation:checks:narrow -- [--reaching|--no-judges] <file>...`: StrykerJS over each
 * checks file in turn (stryker.checks.config.json), each run with the test set narrowed to the
 * tests that can see that file's mutants (checks-tests.ts; `--reaching`: every test that loads
 * the file; `--no-judges`: without the whole-verdict tests of CHECKS_JUDGES that do not name the
 * file's invariant, which every survivor runs in full, so a lower bound of the score at a
 * fraction of the time). The
 * narrowed list goes to vitest.checks.config.ts in `CHECKS_TESTS`. Each file's report is kept as
 * reports/mutation-checks/<name>.json, its score and survivors appended to
 * reports/mutation-checks/summary.md and printed, with the seconds a mutant cost and the load.
 * Each run has a config, a report and a sandbox of its own, so runs on several files can go on
 * side by side in one checkout.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename } from 'node:path';
import { checksTestSet, testsReaching, testsSeeing } from './checks-tests.ts';
import { type Report, summarize } from './summarize.ts';

const DIR = 'reports/mutation-checks';
const BASE_CONFIG = 'stryker.checks.config.json';
const SUMMARY = `${DIR}/summary.md`;
/** A narrowed run takes seconds; a mutant that loops is cut off well before the whole set's 120 s. */
const TIMEOUT_MS = '30000';

const args = process.argv.slice(2);
const reaching = args.includes('--reaching');
const noJudges = args.includes('--no-judges');
const mode = reaching ? '.reaching' : noJudges ? '.no-judges' : '';
const files = args.filter((a) => !a.startsWith('--'));
if (files.length === 0) {
  console.error('mutation:checks:narrow: name the files to mutate (src/checks/invariants/<name>.ts ...)');
  process.exit(2);
}
mkdirSync(DIR, { recursive: true });
const all = checksTestSet();
let failed = false;
for (const file of files) {
  const target = file.replace(/:[\d-]+$/, '');
  if (!existsSync(target)) {
    console.error(`mutation:checks:narrow: no such file ${target}`);
    process.exit(2);
  }
  const loading = testsReaching(target, all);
  const tests = reaching ? loading : testsSeeing(target, loading, undefined, !noJudges);
  const load = loadavg()[0]?.toFixed(1);
  const started = Date.now();
  const name = `${basename(target, '.ts')}${mode}`;
  const { config, report } = runConfig(name);
  rmSync(report, { force: true });
  const run = spawnSync('npx', ['stryker', 'run', config, '--mutate', file, '--timeoutMS', TIMEOUT_MS], {
    stdio: 'inherit',
    env: { ...process.env, CHECKS_TESTS: tests.join(',') },
  });
  const seconds = (Date.now() - started) / 1000;
  if (run.status !== 0 || !existsSync(report)) {
    console.error(`mutation:checks:narrow: stryker failed on ${file} (exit ${run.status ?? run.signal})`);
    failed = true;
    continue;
  }
  const kept = `${DIR}/${name}.json`;
  copyFileSync(report, kept);
  const summary = summarize(JSON.parse(readFileSync(report, 'utf8')) as Report);
  const perMutant = summary.valid === 0 ? 0 : seconds / summary.valid;
  const text = [
    `## ${file}: ${summary.score}`,
    `${tests.length} of ${all.length} test files (${tests.join(', ')}); ` +
      `${(seconds / 60).toFixed(1)} min, ${perMutant.toFixed(1)} s a mutant, load ${load} at the start; report ${kept}`,
    '',
    ...summary.survivors.map((s) => `- ${s}`),
    '',
  ].join('\n');
  appendFileSync(SUMMARY, `${text}\n`);
  console.log(text);
}
process.exit(failed ? 1 : 0);

/** stryker.checks.config.json with the run's own report files and sandbox folder. */
function runConfig(name: string): { config: string; report: string } {
  const { $schema, ...base } = JSON.parse(readFileSync(BASE_CONFIG, 'utf8')) as Record<string, unknown>;
  const report = `${DIR}/${name}.run/mutation.json`;
  const config = `${DIR}/${name}.run/stryker.json`;
  mkdirSync(`${DIR}/${name}.run`, { recursive: true });
  const own = {
    ...base,
    jsonReporter: { fileName: report },
    htmlReporter: { fileName: `${DIR}/${name}.run/index.html` },
    tempDirName: `.stryker-tmp/${name}`,
  };
  writeFileSync(config, `${JSON.stringify(own, null, 2)}\n`);
  return { config, report };
}
