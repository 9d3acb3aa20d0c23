/**
 * Records the replay corpus: small real histories of the released binaries, kept compressed in
 * the repository so that CI replays them on the newer binaries and a kernel change that breaks
 * determinism turns it red. Run again when a binary is released: `npm run corpus:record` records
 * every release, `npm run corpus:record -- v2` the ones named. A recording adds files named after
 * its day (`corpus-<yyyymmdd>-run-0000-execution-1.json.gz`) and replaces none: histories
 * written by older code are what the corpus is for.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { type BinaryId, RELEASES } from '../../src/kernel/index.ts';
import { runScenario } from '../../src/runner/run-scenario.ts';
import { scenarioSchema } from '../../src/scenario/scenario-schema.ts';

const CORPUS_DIR = fileURLToPath(new URL('.', import.meta.url));

const asked = process.argv.slice(2);
const isRelease = (name: string): name is (typeof RELEASES)[number] => (RELEASES as readonly string[]).includes(name);
const unknown = asked.filter((name) => !isRelease(name));
if (unknown.length > 0) {
  console.error(`corpus:record: ${unknown.join(', ')} is not a release (releases: ${RELEASES.join(', ')})`);
  process.exit(2);
}
const binaries: BinaryId[] = asked.length > 0 ? asked.filter(isRelease) : [...RELEASES];
const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');

/**
 * Runs that cross the compaction trigger and, from v1, continue as new, at limits scaled ~32x
 * down; the server suggests ContinueAsNew past 100 events (~turn 7), which v2 follows and the
 * others record without heeding.
 */
const scenario = scenarioSchema.parse({
  name: `corpus-${day}`,
  seed: 2026,
  target: { binaries },
  server: {
    dynamicConfig: { 'limit.blobSize.error': 65_536, 'limit.blobSize.warn': 16_384, 'limit.historyCount.suggestContinueAsNew': 100 },
  },
  limits: { blobLimitBytes: 65_536, compactionTriggerBytes: 40_000, tailMaxBytes: 8_192, continueAsNewBytes: 250_000 },
  runs: { count: 1, concurrency: 1, timeout: '90s' },
  shape: { overrides: { turns: 16, bytesPerTurn: 3_000, screenshotEvery: 6, screenshotBytes: 6_000 } },
  // v0 has no ContinueAsNew: its run passes the budget, which history.continue-as-new fails by design.
  expect: binaries.filter((on) => on !== 'v0').map((on) => ({ on, hold: 'all' })),
});

const summary = await runScenario(scenario, {
  async onHistories(record, fetchHistories: () => Promise<temporal.api.history.v1.IHistory[]>) {
    const dir = join(CORPUS_DIR, record.binary);
    mkdirSync(dir, { recursive: true });
    (await fetchHistories()).forEach((history, i) => {
      const file = join(dir, `${record.runId}-execution-${i + 1}.json.gz`);
      writeFileSync(file, gzipSync(historyToJSON(history as temporal.api.history.v1.History)));
      console.log(`wrote ${file}`);
    });
  },
});
if (!summary.passed) {
  console.error(`the corpus runs did not hold every invariant: ${summary.expectations.map((e) => e.detail).join('; ')}`);
  process.exit(1);
}
