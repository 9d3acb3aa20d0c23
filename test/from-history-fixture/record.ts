/**
 * Records the from-history fixture: a real history of tmprl1103's run on v0 (its sizes and limits a quarter of the built-in's, to keep the file small) with the failures a
 * production history shows (the model's 429 and 500 retried, its workflow worker killed), so that
 * `longrun scenario from-history` is tested on what the server writes, not an imitation of it.
 * `node --import tsx test/from-history-fixture/record.ts` writes
 * `tmprl1103-faults-execution-1.json.gz` beside it (the history as `temporal workflow show
 * --output json` prints it).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { runScenario } from '../../src/runner/run-scenario.ts';
import { scenarioSchema } from '../../src/scenario/scenario-schema.ts';

const FILE = fileURLToPath(new URL('tmprl1103-faults-execution-1.json.gz', import.meta.url));

const scenario = scenarioSchema.parse({
  name: 'tmprl1103-faults',
  seed: 1103,
  target: { binaries: ['v0'] },
  server: { dynamicConfig: { 'limit.blobSize.error': 65_536, 'limit.blobSize.warn': 16_384 } },
  limits: { blobLimitBytes: 65_536, compactionTriggerBytes: 40_000, tailMaxBytes: 8_192, cardMaxBytes: 4_096 },
  runs: { count: 1, concurrency: 1, maxTurns: 60, timeout: '2m' },
  shape: { overrides: { turns: 23, bytesPerTurn: 3_072, screenshotEvery: 6, screenshotBytes: 5_000 } },
  faults: {
    agent: [
      { fault: { kind: 'http-429', retryAfterSeconds: 0 }, when: { turns: [4], attempts: [1] } },
      { fault: { kind: 'http-500' }, when: { turns: [7], attempts: [1, 2] } },
      { fault: { kind: 'latency', ms: 40 } },
    ],
  },
  chaos: [{ action: 'kill-worker', atTurn: 10 }],
  expect: [{ on: 'v0', reproduces: 'tmprl1103' }],
});

let written = false;
const summary = await runScenario(scenario, {
  async onHistories(_record, fetchHistories: () => Promise<temporal.api.history.v1.IHistory[]>) {
    const [history] = await fetchHistories();
    writeFileSync(FILE, gzipSync(historyToJSON(history as temporal.api.history.v1.History)));
    written = true;
    console.log(`wrote ${FILE}`);
  },
});
if (!summary.passed || !written) {
  console.error(`the run did not reproduce tmprl1103: ${summary.expectations.map((e) => e.detail).join('; ')}`);
  process.exit(1);
}
