/**
 * Cross-version replay of the recorded corpus: the histories of every release replay on itself
 * and every later one (v0 -> v1 -> v2), so a kernel change that breaks determinism turns CI
 * red. The ungated control shows the test can fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRun, loadHistory } from '../../src/checks/index.ts';
import { type BinaryId, RELEASES } from '../../src/kernel/index.ts';
import { closeReplayers, replayHistories } from '../../src/runner/replay.ts';

const CORPUS_DIR = fileURLToPath(new URL('.', import.meta.url));
const EXECUTION_FILE = /^(.+)-execution-\d+\.json\.gz$/;
/**
 * Set by vitest.checks.config.ts: the checks under mutation want the verdicts only; the replay
 * tests judge the kernel. A name pattern would not do: Stryker's runner clears it for each mutant.
 */
const verdictsOnly = process.env.CORPUS_VERDICTS_ONLY === '1';

/** The recorded runs of a binary: each run's executions in order, by run (one recording a day). */
function corpus(binary: BinaryId): Map<string, unknown[]> {
  const dir = join(CORPUS_DIR, binary);
  const files = readdirSync(dir)
    .filter((f) => EXECUTION_FILE.test(f))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const runs = new Map<string, unknown[]>();
  for (const file of files) {
    const run = EXECUTION_FILE.exec(file)?.[1] as string;
    runs.set(run, [...(runs.get(run) ?? []), JSON.parse(gunzipSync(readFileSync(join(dir, file))).toString('utf8')) as unknown]);
  }
  return runs;
}

function verdict(binary: BinaryId, run: string, executions: unknown[]) {
  const loaded = executions.map((json, i) => loadHistory(json as never, { source: `${binary} ${run} execution ${i + 1}` }));
  return checkRun(loaded, { limits: { blobLimitBytes: 65_536 } });
}

describe('the replay corpus', () => {
  afterAll(closeReplayers);

  for (const [i, recordedOn] of RELEASES.entries()) {
    for (const replayOn of RELEASES.slice(i)) {
      it.skipIf(verdictsOnly)(`${recordedOn} histories replay on ${replayOn}`, async () => {
        const histories = [...corpus(recordedOn).values()].flat().map((json) => historyFromJSON(json));
        expect(histories.length).toBeGreaterThan(0);
        const outcome = await replayHistories(replayOn, `corpus-${recordedOn}`, histories);
        expect(outcome.errors).toEqual([]);
      });
    }
  }

  it('holds runs that exercise what replay must survive: v1 compacting and continuing as new', () => {
    for (const [run, executions] of corpus('v1')) {
      const v1 = verdict('v1', run, executions);
      expect(
        v1.results.filter((r) => r.status === 'fail'),
        run,
      ).toEqual([]);
      expect(v1.sources.length, run).toBeGreaterThan(1);
      expect(v1.results.find((r) => r.id === 'compaction.trigger')?.status, run).toBe('pass');
    }
  });

  it("holds v2's runs, which continue as new where the server suggests it, and has v1 histories that carry the suggestion", () => {
    const v2 = [...corpus('v2')];
    expect(v2.length).toBeGreaterThan(0);
    for (const [run, executions] of v2) {
      const result = verdict('v2', run, executions);
      expect(
        result.results.filter((r) => r.status === 'fail'),
        run,
      ).toEqual([]);
      const continued = result.results.find((r) => r.id === 'history.continue-as-new');
      expect(continued?.evidence[0], run).toMatch(/under the budget [\d,]+; the server suggested ContinueAsNew at .*; continued as new at/);
    }
    // What v2 must replay without continuing as new: v1 histories in which the server suggested it.
    const suggested = [...corpus('v1').values()].flat().some((json) => JSON.stringify(json).includes('"suggestContinueAsNew":true'));
    expect(suggested).toBe(true);
  });

  it.skipIf(verdictsOnly)("does not replay v1 histories on v2's control without its gate (a determinism error)", async () => {
    const histories = [...corpus('v1').values()].flat().map((json) => historyFromJSON(json));
    const outcome = await replayHistories('history-ungated', 'corpus-v1', histories);
    expect(outcome.errors.join('\n')).toMatch(/DeterminismViolation|Nondeterminism/i);
  });

  it.skipIf(verdictsOnly)('does not replay v0 histories on the ungated control (a determinism error)', async () => {
    const histories = [...corpus('v0').values()].flat().map((json) => historyFromJSON(json));
    const outcome = await replayHistories('ungated', 'corpus-v0', histories);
    expect(outcome.errors.join('\n')).toMatch(/DeterminismViolation|Nondeterminism/i);
  });
});
