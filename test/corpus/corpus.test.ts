/**
 * Cross-version replay of the recorded corpus: the histories of every released binary replay
 * on every newer one, so a kernel change that breaks determinism turns CI red. The ungated
 * control shows the test can fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRun, loadHistory } from '../../src/checks/index.ts';
import type { BinaryId } from '../../src/kernel/index.ts';
import { closeReplayers, replayHistories } from '../../src/runner/replay.ts';

const CORPUS_DIR = fileURLToPath(new URL('.', import.meta.url));
/** Released binaries, oldest first: each one's histories must replay on itself and every later one. */
const RELEASES: BinaryId[] = ['v0', 'v1'];

function corpus(binary: BinaryId) {
  const dir = join(CORPUS_DIR, binary);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json.gz'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return files.map((f) => JSON.parse(gunzipSync(readFileSync(join(dir, f))).toString('utf8')) as unknown);
}

describe('the replay corpus', () => {
  afterAll(closeReplayers);

  for (const [i, recordedOn] of RELEASES.entries()) {
    for (const replayOn of RELEASES.slice(i)) {
      it(`${recordedOn} histories replay on ${replayOn}`, async () => {
        const histories = corpus(recordedOn).map((json) => historyFromJSON(json));
        expect(histories.length).toBeGreaterThan(0);
        const outcome = await replayHistories(replayOn, `corpus-${recordedOn}`, histories);
        expect(outcome.errors).toEqual([]);
      });
    }
  }

  it('holds runs that exercise what replay must survive: v0 past the trigger, v1 compacting and continuing as new', () => {
    const v1 = checkRun(
      corpus('v1').map((json, i) => loadHistory(json as never, { source: `v1 execution ${i + 1}` })),
      {
        limits: { blobLimitBytes: 65_536 },
      },
    );
    expect(v1.results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(v1.sources.length).toBeGreaterThan(1);
    expect(v1.results.find((r) => r.id === 'compaction.trigger')?.status).toBe('pass');
  });

  it('does not replay v0 histories on the ungated control (a determinism error)', async () => {
    const histories = corpus('v0').map((json) => historyFromJSON(json));
    const outcome = await replayHistories('ungated', 'corpus-v0', histories);
    expect(outcome.errors.join('\n')).toMatch(/DeterminismViolation|Nondeterminism/i);
  });
});
