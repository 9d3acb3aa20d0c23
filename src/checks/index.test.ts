import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRun, HISTORY_INVARIANT_IDS, HistoryLoadError, INVARIANTS, loadHistoryFile } from './index.ts';
import { AgentRunHistory, SMALL_LIMITS } from './testing/index.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'longrun-verdict-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A long run as the current kernel plays it: compactions, a failed one, ContinueAsNew. */
function longRun(): AgentRunHistory {
  const run = new AgentRunHistory({ limits: SMALL_LIMITS }).play(14);
  while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.play(1);
  run
    .compact({ outcome: 'failed' })
    .turn()
    .play(20, { tools: [1800, 600] })
    .complete();
  return run;
}

describe('the registry', () => {
  it('holds every invariant of the design, replay.cross-version as a replay slot', () => {
    expect(Object.keys(INVARIANTS).sort()).toEqual([...HISTORY_INVARIANT_IDS, 'replay.cross-version', 'requests.accepted'].sort());
    expect(INVARIANTS['replay.cross-version'].kind).toBe('replay');
    expect(INVARIANTS['requests.accepted'].kind).toBe('mocks');
    for (const id of HISTORY_INVARIANT_IDS) expect(INVARIANTS[id]).toMatchObject({ kind: 'history', description: expect.any(String) });
  });
});

describe('checkRun', () => {
  it('passes a correct long run on every invariant it exercises', () => {
    const run = longRun();
    const verdict = checkRun(run.loaded());
    expect(verdict.status).toBe('pass');
    expect(verdict.runId).toBe('run-0001');
    expect(verdict.sources).toEqual(run.executions.map((_, i) => `execution-${i + 1}.json`));
    expect(Object.fromEntries(verdict.results.map((r) => [r.id, r.status]))).toEqual({
      'payload.ceiling': 'pass',
      'payload.references-resolve': 'not-applicable',
      'wft.no-retry-loop': 'pass',
      'history.no-termination': 'pass',
      'history.continue-as-new': 'pass',
      'can.clean-boundary': 'pass',
      'can.carry-over': 'pass',
      'compaction.trigger': 'pass',
      'compaction.failure-continues': 'pass',
      'compaction.card': 'pass',
      'compaction.digest-coverage': 'pass',
      'elision.minimal': 'pass',
      'rebuild.contract': 'pass',
      'journal.chain': 'pass',
      'run.liveness': 'pass',
      'versioning.pinned-build': 'not-applicable',
    });
    expect(verdict.limits).toEqual(SMALL_LIMITS);
  });

  it('judges files as loaded from disk, given in any order', async () => {
    const run = longRun();
    const paths = await Promise.all(
      run.histories().map(async (history, i) => {
        const path = join(dir, `execution-${i + 1}.json`);
        await writeFile(path, JSON.stringify(history, null, 2));
        return path;
      }),
    );
    const loaded = await Promise.all(paths.reverse().map((path) => loadHistoryFile(path)));
    const verdict = checkRun(loaded);
    expect(verdict.status).toBe('pass');
    expect(verdict.sources).toEqual([...paths].reverse());
  });

  it('takes raw histories too, and the limits in order: mapping, context, the run input', () => {
    const run = new AgentRunHistory({ limits: { compactionTriggerBytes: 30_000 } }).turns(2);
    const verdict = checkRun(run.histories(), { limits: { compactionTriggerBytes: 10_000, tailMaxBytes: 9_000 } });
    expect(verdict.limits).toMatchObject({ compactionTriggerBytes: 30_000, tailMaxBytes: 9_000, blobLimitBytes: 2_097_152 });
  });

  it('refuses histories that are not one ContinueAsNew chain, naming the history', () => {
    const a = new AgentRunHistory().turn().continueAsNew().turn().loaded();
    const b = new AgentRunHistory({ runId: 'run-0002' }).turn().loaded();
    expect(() => checkRun([a[1], b[0]].filter((h) => h !== undefined))).toThrow(HistoryLoadError);
    expect(() => checkRun([a[0], a[0]].filter((h) => h !== undefined))).toThrow(/^execution-1\.json: run id [0-9a-f-]{36} is given twice$/);
    expect(() => checkRun([a[1]].filter((h) => h !== undefined).concat(b))).toThrow(/not one ContinueAsNew chain/);
  });

  it('refuses a bad check context in one line naming the field', () => {
    const histories = new AgentRunHistory().turn().loaded();
    expect(() => checkRun(histories, { workflowTaskFailureRun: 0 })).toThrow(
      'check context: workflowTaskFailureRun must be an integer >= 1, got 0',
    );
    expect(() => checkRun(histories, { limits: { blobLimitBytes: -1 } })).toThrow(
      'check context: limits.blobLimitBytes must be a positive integer, got -1',
    );
    expect(() => checkRun(histories, { card: { minIdentifierShare: 2 } })).toThrow(
      'check context: card.minIdentifierShare must be in [0, 1], got 2',
    );
    expect(() => checkRun(histories, { gateOpens: 'sometimes' as never })).toThrow(
      'check context: gateOpens must be "with-execution" or "at-marker", got sometimes',
    );
  });
});
