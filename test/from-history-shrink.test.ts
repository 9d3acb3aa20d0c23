/**
 * A scenario `longrun scenario from-history` wrote from a recorded history with failures
 * (test/from-history-fixture) run on v0 and shrunk: the original breaks on the blob limit at the
 * source's turn under its faults and its kill, and `shrink` keeps only what still breaks there.
 */

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildRunView, loadHistory } from '../src/checks/index.ts';
import type { Summary } from '../src/result/index.ts';
import { runScenario } from '../src/runner/run-scenario.ts';
import { shrinkScenario } from '../src/runner/shrink-scenario.ts';
import { scenarioFromHistory } from '../src/scenario/from-history.ts';
import { FIXTURE } from './from-history-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'longrun-from-history-shrink-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('shrink on a scenario from-history wrote', () => {
  it('reproduces the incident at its turn under the failures, and shrinks to one that still does', async () => {
    const json = gunzipSync(readFileSync(FIXTURE)).toString('utf8');
    const made = scenarioFromHistory(buildRunView([loadHistory(json, { source: FIXTURE })]), {
      source: FIXTURE,
      sha256: createHash('sha256').update(json).digest('hex'),
    });
    const data = parse(made.text) as Record<string, unknown>;
    const summaries: Summary[] = [];
    const steps: string[] = [];
    const result = await shrinkScenario(data, {
      run: async (scenario) => {
        const summary = await runScenario(scenario);
        summaries.push(summary);
        return summary;
      },
      maxSteps: 1,
      fileName: join(dir, 'from-fixture.yaml'),
      onStep: (s) => steps.push(`${s.change}: ${s.verdict}${s.why ? ` (${s.why})` : ''}`),
    });
    console.error(steps.join('\n'));

    // The original: tmprl1103 at turn 17 within one, its worker killed on the way.
    const [original] = summaries;
    expect(original?.expectations.map((e) => [e.description, e.met])).toEqual([
      ['on v0: tmprl1103 at turn 17 ± 1 reproduces', true],
      ['chaos: kill-worker (workflows) at turn 14', true],
      ['chaos: every run is judged by an expectation on the binary that ran it last', true],
    ]);
    // The kill goes first (its run is the slowest): the smaller scenario still breaks at the turn.
    expect(steps).toEqual(['chaos 1 -> 0 steps: kept']);
    expect(result.smallest.data.chaos).toEqual([]);
    expect([...result.smallest.failure]).toContain('v0 reproduces tmprl1103');
    expect(summaries.at(-1)?.expectations).toEqual([expect.objectContaining({ met: true })]);
    console.error(`one run: ${result.original.wallMs} ms before, ${result.smallest.wallMs} ms after`);
  }, 120_000); // ~35 s alone: the original's run (its kill stalls a workflow task 10 s), one candidate's
});
