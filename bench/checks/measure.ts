/**
 * Loads history files and runs every check over them, printing how long each step took and the
 * verdict; run it under `/usr/bin/time -v` for the peak RSS:
 *   node --import tsx bench/checks/measure.ts [--parse] <execution-1.json>...
 * `--parse` reads each file with one JSON.parse (the in-memory path) instead of streaming it.
 */
import { readFileSync } from 'node:fs';
import { checkRun, type LoadedHistory, loadHistory, loadHistoryFile } from '../../src/checks/index.ts';

const args = process.argv.slice(2);
const parse = args.includes('--parse');
const files = args.filter((a) => a !== '--parse');
if (files.length === 0) throw new Error('usage: measure.ts [--parse] <history.json>...');

const started = performance.now();
const loaded: LoadedHistory[] = [];
for (const file of files) {
  loaded.push(parse ? loadHistory(JSON.parse(readFileSync(file, 'utf8')), { source: file }) : await loadHistoryFile(file));
}
const afterLoad = performance.now();
const verdict = checkRun(loaded);
const afterCheck = performance.now();
const events = loaded.reduce((n, h) => n + h.events.length, 0);
const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
console.log(
  `${parse ? 'JSON.parse' : 'streamed'}: ${events} events loaded in ${(afterLoad - started).toFixed(0)} ms, checked in ${(afterCheck - afterLoad).toFixed(0)} ms`,
);
console.log(`heap used ${mb(process.memoryUsage().heapUsed)} after checking (rss ${mb(process.memoryUsage().rss)})`);
console.log(`verdict ${verdict.status}: ${verdict.results.map((r) => `${r.id} ${r.status}`).join(', ')}`);
