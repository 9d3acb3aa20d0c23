/**
 * `longrun forecast` against a real break: v0 under the tmprl1103 scenario on the real server
 * grows its request every turn until a call_model input passes the blob limit and its workflow
 * task fails with PAYLOADS_TOO_LARGE. Forecast from the first half of its turns, the blob limit
 * falls on the turn that broke.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRunView, type Forecast, incidentsOf, loadHistory } from '../src/checks/index.ts';
import { resolveScenario, runScenario } from '../src/index.ts';
import { longrun } from './longrun-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'longrun-forecast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = { events: { eventId: string; activityTaskScheduledEventAttributes?: { activityType: { name: string } } }[] };

describe('longrun forecast', () => {
  it("names the turn at which v0's request passes the blob limit, from the first half of a real run that broke there", async () => {
    const { scenario } = resolveScenario('tmprl1103');
    const v0Only = {
      ...scenario,
      target: { ...scenario.target, binaries: ['v0' as const] },
      runs: { ...scenario.runs, count: 1, concurrency: 1 },
      expect: scenario.expect.filter((e) => e.on === 'v0'),
    };
    const histories: temporal.api.history.v1.IHistory[] = [];
    const summary = await runScenario(v0Only, { onHistories: (_record, h) => void histories.push(...h) });
    expect(summary.runs.map((r) => r.incidents)).toEqual([['tmprl1103']]);
    expect(histories).toHaveLength(1);
    const json = JSON.parse(historyToJSON(histories[0] as temporal.api.history.v1.History)) as Json;
    const loaded = loadHistory(json as never, { source: 'v0' });
    expect(incidentsOf([loaded])).toContain('tmprl1103');

    // The turn that broke: the one after the last call_model the server accepted.
    const calls = json.events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType.name === 'call_model');
    const broke = buildRunView([loaded]).executions[0]?.turns.length ?? 0;
    expect(calls.length).toBe(broke);
    const brokenTurn = broke + 1;

    // Its first half: the events before the call_model of the turn after half.
    const half = Math.floor(broke / 2);
    const cut = Number(calls[half]?.eventId);
    const prefix = join(dir, 'v0-first-half.json');
    writeFileSync(prefix, JSON.stringify({ events: json.events.filter((e) => Number(e.eventId) < cut) }));
    const blob = String(scenario.limits.blobLimitBytes);
    const result = await longrun(['forecast', prefix, '--blob-limit', blob, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const [forecast] = (JSON.parse(result.stdout) as { forecasts: Forecast[] }).forecasts;
    expect(forecast?.samples).toHaveLength(half);
    const predicted = forecast?.metrics.largestPayload.limits[0];
    expect(predicted).toMatchObject({ name: 'blob limit', value: Number(blob), observed: false });
    expect(Math.abs((predicted?.step ?? 0) - brokenTurn), `predicted ${predicted?.step}, broke at ${brokenTurn}`).toBeLessThanOrEqual(1);

    const text = await longrun(['forecast', prefix, '--blob-limit', blob]);
    expect(text.stdout).toMatch(new RegExp(`blob limit ${Number(blob).toLocaleString('en-US')} bytes: at turn ${predicted?.step}`));
  });
});
