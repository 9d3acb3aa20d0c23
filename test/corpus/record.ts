/**
 * Records the replay corpus: small real histories of every released binary, kept compressed in
 * the repository so that CI replays them on the newer binaries and a kernel change that breaks
 * determinism turns it red. Run again (`npm run corpus:record`) when a binary is released.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { runScenario } from '../../src/runner/run-scenario.ts';
import { scenarioSchema } from '../../src/scenario/scenario-schema.ts';

const CORPUS_DIR = fileURLToPath(new URL('.', import.meta.url));

/** Runs that cross the compaction trigger and, on v1, continue as new, at limits scaled ~32x down. */
const scenario = scenarioSchema.parse({
  name: 'corpus',
  seed: 2026,
  target: { binaries: ['v0', 'v1'] },
  server: { dynamicConfig: { 'limit.blobSize.error': 65_536, 'limit.blobSize.warn': 16_384 } },
  limits: { blobLimitBytes: 65_536, compactionTriggerBytes: 40_000, tailMaxBytes: 8_192, continueAsNewBytes: 250_000 },
  runs: { count: 1, concurrency: 1, timeout: '90s' },
  shape: { overrides: { turns: 16, bytesPerTurn: 3_000, screenshotEvery: 6, screenshotBytes: 6_000 } },
  expect: [{ on: 'v1', hold: 'all' }],
});

const summary = await runScenario(scenario, {
  onHistories(record, histories: temporal.api.history.v1.IHistory[]) {
    const dir = join(CORPUS_DIR, record.binary);
    mkdirSync(dir, { recursive: true });
    histories.forEach((history, i) => {
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
