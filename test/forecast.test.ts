/**
 * `longrun forecast` against a real break: v0 under the tmprl1103 scenario on the real server
 * grows its request every turn until a call_model input passes the blob limit and its workflow
 * task fails with PAYLOADS_TOO_LARGE. Forecast from the first half of its turns, the blob limit
 * falls on the turn that broke. The same for the OpenAI Agents SDK (examples/agents-sdk) under
 * agents-sdk-long: its model activity's input, the whole conversation, passes the blob limit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRunView, type Forecast, incidentsOf, loadHistory, readKernelMappingFile } from '../src/checks/index.ts';
import { resolveScenario, runScenario } from '../src/index.ts';
import { longrun } from './longrun-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'longrun-forecast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = { events: { eventId: string; activityTaskScheduledEventAttributes?: { activityType: { name: string } } }[] };

/** The history's events before the `index`-th (0-based) activity of `activityType` was scheduled, as a file. */
function prefixFile(json: Json, activityType: string, index: number, name: string): string {
  const calls = json.events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType.name === activityType);
  const cut = Number(calls[index]?.eventId);
  expect(cut, `${activityType} #${index + 1} scheduled`).toBeGreaterThan(0);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ events: json.events.filter((e) => Number(e.eventId) < cut) }));
  return file;
}

/** The blob limit's forecast from `longrun forecast --json`. */
async function blobForecast(
  args: string[],
): Promise<{ forecast: Forecast | undefined; predicted: Forecast['metrics']['largestPayload']['limits'][number] | undefined }> {
  const result = await longrun(['forecast', ...args, '--json']);
  expect(result.code, result.stderr).toBe(0);
  const [forecast] = (JSON.parse(result.stdout) as { forecasts: Forecast[] }).forecasts;
  return { forecast, predicted: forecast?.metrics.largestPayload.limits[0] };
}

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
    const summary = await runScenario(v0Only, { onHistories: async (_record, h) => void histories.push(...(await h())) });
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
    const prefix = prefixFile(json, 'call_model', half, 'v0-first-half.json');
    const blob = String(scenario.limits.blobLimitBytes);
    const { forecast, predicted } = await blobForecast([prefix, '--blob-limit', blob]);
    expect(forecast?.samples).toHaveLength(half);
    expect(predicted).toMatchObject({ name: 'blob limit', value: Number(blob), observed: false });
    expect(Math.abs((predicted?.step ?? 0) - brokenTurn), `predicted ${predicted?.step}, broke at ${brokenTurn}`).toBeLessThanOrEqual(1);

    const text = await longrun(['forecast', prefix, '--blob-limit', blob]);
    expect(text.stdout).toMatch(new RegExp(`blob limit ${Number(blob).toLocaleString('en-US')} bytes: at turn ${predicted?.step}`));
  });

  it("names the turn at which the Agents SDK's model input passes the blob limit, from the first half of a real agents-sdk-long run", async () => {
    const { scenario, file } = resolveScenario('agents-sdk-long');
    const one = { ...scenario, runs: { ...scenario.runs, count: 1, concurrency: 1 } };
    const histories: temporal.api.history.v1.IHistory[] = [];
    const summary = await runScenario(one, { scenarioFile: file, onHistories: async (_record, h) => void histories.push(...(await h())) });
    expect(summary.runs.map((r) => r.incidents)).toEqual([['tmprl1103']]);
    const json = JSON.parse(historyToJSON(histories[0] as temporal.api.history.v1.History)) as Json;
    const mappingFile = 'examples/agents-sdk/mapping.json';
    const loaded = loadHistory(json as never, { source: 'agents-sdk', mapping: readKernelMappingFile(mappingFile) });

    // The turn that broke: the model call after the last one the server accepted (the 20th, README).
    const broke = buildRunView([loaded]).executions[0]?.turns.length ?? 0;
    expect(broke).toBe(19);
    const half = Math.floor(broke / 2);
    const prefix = prefixFile(json, 'invokeModelActivity', half, 'agents-sdk-first-half.json');
    const blob = String(scenario.limits.blobLimitBytes);
    const { forecast, predicted } = await blobForecast([prefix, '--mapping', mappingFile, '--blob-limit', blob]);
    // Through the mapping the steps are the SDK's model calls, not every activity.
    expect(forecast).toMatchObject({ unit: 'turn', workflowType: 'agentRun' });
    expect(forecast?.samples).toHaveLength(half);
    expect(predicted).toMatchObject({ name: 'blob limit', value: Number(blob), observed: false });
    expect(Math.abs((predicted?.step ?? 0) - (broke + 1)), `predicted ${predicted?.step}, broke at ${broke + 1}`).toBeLessThanOrEqual(1);
  });
});
