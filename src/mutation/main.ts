/**
 * `npm run mutation [-- stryker options]`: StrykerJS over the kernel's decision code with the
 * detection suite as its test (stryker.config.json), then the score and the survivors written to
 * reports/mutation/survivors.md and printed. Extra arguments go to `stryker run` (for a bounded
 * run: `--mutate src/kernel/context/card.ts:19-32`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type Report, summarize } from './summarize.ts';

const REPORT = 'reports/mutation/mutation.json';
const SURVIVORS = 'reports/mutation/survivors.md';

const started = Date.now();
const stryker = spawnSync('npx', ['stryker', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
if (stryker.status !== 0 || !existsSync(REPORT)) {
  console.error(`mutation: stryker run failed (exit ${stryker.status ?? stryker.signal}); no report at ${REPORT}`);
  process.exit(1);
}
const summary = summarize(JSON.parse(readFileSync(REPORT, 'utf8')) as Report);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const text = [
  `mutation score ${summary.score} in ${minutes} min`,
  '',
  `survivors (${summary.survivors.length}):`,
  ...summary.survivors.map((s) => `- ${s}`),
  '',
].join('\n');
writeFileSync(SURVIVORS, text);
console.log(text);
