/**
 * `npm run mutation [-- stryker options]`: StrykerJS over the kernel's decision code with the
 * detection suite as its test (stryker.config.json), then the score and the survivors written to
 * reports/mutation/survivors.md and printed. Extra arguments go to `stryker run` (for a bounded
 * run: `--mutate src/kernel/context/card.ts:19-32`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Report, summarize } from './summarize.ts';

const REPORT = 'reports/mutation/mutation.json';
const SURVIVORS = 'reports/mutation/survivors.md';
/** Every mutant's detection output (detect.ts), `<id>.log`: Stryker keeps a killed mutant's only. */
const LOGS = process.env.MUTATION_LOG_DIR ?? resolve('reports/mutation/runs');

const started = Date.now();
// Mutant ids are a run's own: the logs of an earlier run would be read as this one's.
rmSync(LOGS, { recursive: true, force: true });
const stryker = spawnSync('npx', ['stryker', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, MUTATION_LOG_DIR: LOGS },
});
if (stryker.status !== 0 || !existsSync(REPORT)) {
  console.error(`mutation: stryker run failed (exit ${stryker.status ?? stryker.signal}); no report at ${REPORT}`);
  process.exit(1);
}
const summary = summarize(JSON.parse(readFileSync(REPORT, 'utf8')) as Report);
const seconds = (Date.now() - started) / 1000;
const perMutant = summary.valid === 0 ? '' : `, ${Math.round(seconds / summary.valid)} s a mutant`;
const text = [
  `mutation score ${summary.score} in ${(seconds / 60).toFixed(1)} min${perMutant}`,
  `each mutant's detection output: ${LOGS}/<id>.log`,
  '',
  `survivors (${summary.survivors.length}):`,
  ...summary.survivors.map((s) => `- ${s}`),
  '',
].join('\n');
writeFileSync(SURVIVORS, text);
console.log(text);
