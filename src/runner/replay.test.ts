import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { describe, expect, it } from 'vitest';
import { holdReplayers, replayHistories, replayTargets, replayWorkerCount } from './replay.ts';

const V0_CORPUS = new URL('../../test/corpus/v0/', import.meta.url);

describe('holdReplayers', () => {
  it('keeps the replay workers until the last hold is released, then closes them', async () => {
    const file = readdirSync(fileURLToPath(V0_CORPUS)).find((name) => name.endsWith('.json.gz'));
    const history = historyFromJSON(JSON.parse(gunzipSync(readFileSync(new URL(String(file), V0_CORPUS))).toString('utf8')));
    const [first, second] = [holdReplayers(), holdReplayers()];
    expect((await replayHistories('v1', 'held', [history])).errors).toEqual([]);
    expect(replayWorkerCount()).toBe(1);
    await first();
    await first(); // a second release of the same hold counts once
    expect(replayWorkerCount()).toBe(1);
    expect((await replayHistories('v1', 'held', [history])).errors).toEqual([]);
    expect(replayWorkerCount()).toBe(1); // the same worker, idle again, took the second replay
    await second();
    expect(replayWorkerCount()).toBe(0);
  });
});

describe('replayTargets', () => {
  it("replays a release's histories on itself and every later release in play", () => {
    expect(replayTargets('v0', ['v0', 'v1', 'v2'])).toEqual(['v0', 'v1', 'v2']);
    expect(replayTargets('v1', ['v0', 'v1', 'v2'])).toEqual(['v1', 'v2']);
    expect(replayTargets('v2', ['v0', 'v1', 'v2'])).toEqual(['v2']);
    expect(replayTargets('v1', ['v1'])).toEqual(['v1']);
  });

  it("replays v0's histories on the broken controls (v1 with a switch turned), and theirs on themselves only", () => {
    expect(replayTargets('v0', ['v0', 'ungated'])).toEqual(['v0', 'ungated']);
    expect(replayTargets('v1', ['v1', 'ungated'])).toEqual(['v1']);
    expect(replayTargets('ungated', ['v0', 'ungated', 'v2'])).toEqual(['ungated']);
  });

  it("replays v1's histories on the controls that break v2", () => {
    expect(replayTargets('v1', ['v1', 'history-ungated'])).toEqual(['v1', 'history-ungated']);
    expect(replayTargets('v2', ['v2', 'history-ungated'])).toEqual(['v2']);
  });

  it("replays an offloading binary's histories on the later ones that read its store, and inline histories on both kinds", () => {
    const arms = ['v0', 'v0-offload', 'v1', 'v1-offload'] as const;
    expect(replayTargets('v0-offload', arms)).toEqual(['v0-offload', 'v1-offload']);
    expect(replayTargets('v0', arms)).toEqual(['v0', 'v1', 'v1-offload']);
    expect(replayTargets('v1-offload', arms)).toEqual(['v1-offload']);
  });
});
