/**
 * Records the histories versioning.pinned-build's unit test reads (test/corpus/versioning/),
 * from real runs on the embedded server: chaos-versioning-upgrade-on-can's first run (its
 * executions on v1, then the first on v2, after the first ContinueAsNew after the move; the
 * rest left out), and chaos-versioning-pinned with one run moved to v1 mid-execution by a
 * versioning override (movePinnedRun). Run again after a change to the kernel or the server:
 * `node --import tsx test/corpus/record-versioning.ts`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { movePinnedRun } from '../../src/chaos/testing/move-pinned-run.ts';
import { startEnvironment } from '../../src/environment/index.ts';
import type { RunRecord } from '../../src/result/index.ts';
import { type RunScenarioOptions, runScenario } from '../../src/runner/run-scenario.ts';
import { resolveScenario } from '../../src/scenario/index.ts';

const DIR = fileURLToPath(new URL('versioning/', import.meta.url));

type Histories = () => Promise<temporal.api.history.v1.IHistory[]>;

/** What to keep of a run: its files' prefix, and how many of its executions (all by default). */
type Keep = { as: string; executions?: number } | undefined;

async function record(name: string, keep: (record: RunRecord) => Keep, options: RunScenarioOptions): Promise<void> {
  const { scenario } = resolveScenario(name);
  const kept: [NonNullable<Keep>, Histories][] = [];
  await runScenario(scenario, {
    ...options,
    onHistories(run, histories) {
      const what = keep(run);
      if (what) kept.push([what, histories]);
    },
  });
  for (const [{ as, executions }, histories] of kept) {
    (await histories()).slice(0, executions).forEach((history, i) => {
      const file = join(DIR, `${as}-execution-${i + 1}.json.gz`);
      writeFileSync(file, gzipSync(historyToJSON(history as temporal.api.history.v1.History)));
      console.log(`wrote ${file}`);
    });
  }
}

rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });
const environment = await startEnvironment({});
try {
  await record(
    'chaos-versioning-upgrade-on-can',
    (run) => {
      const evidence = run.invariants.find((i) => i.id === 'versioning.pinned-build')?.evidence ?? [];
      const told = evidence.findIndex((line) => line.includes('told its target version changed'));
      return run.runId.endsWith('-0000') && told >= 0 ? { as: 'upgrade-on-can', executions: told + 2 } : undefined;
    },
    { environment },
  );
  const moving = movePinnedRun(environment.client, environment.namespace, 'v0', 'v1');
  moving.catch(() => {});
  let failed = false;
  await record(
    'chaos-versioning-pinned',
    (run) => {
      const moved = run.invariants.find((i) => i.id === 'versioning.pinned-build')?.status === 'fail';
      failed ||= moved;
      return moved ? { as: 'moved-mid-execution' } : undefined;
    },
    { environment },
  );
  await moving;
  if (!failed) throw new Error('the moved run did not fail versioning.pinned-build');
} finally {
  await environment.teardown();
}
