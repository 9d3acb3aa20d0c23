import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { payload, SdkHistory } from '../../checks/testing/sdk-histories.ts';
import { terminalControls } from '../../shared/testing/terminal-controls.ts';
import { EXIT } from '../exit-code.ts';
import { checkCommand } from './check.ts';
import { forecastCommand } from './forecast.ts';
import { printedOver, writeHostileHistory } from './testing/hostile-history.ts';

describe('forecast prints what a history holds, never its control characters', () => {
  it("shows a hostile history's run id and workflow type with their controls escaped", async () => {
    const { code, text } = await printedOver(writeHostileHistory, (dir) => forecastCommand.run([dir]));
    expect(code).toBe(EXIT.passed);
    expect(terminalControls(text)).toEqual([]);
    expect(text).toContain('(Order\\u001B]0;pwned\\u0007\\u001B[2J\\u000D\\u009B1Aall invariants PASS)');
  });
});

/** A workflow whose server counted 225 MiB of history by its last task: past Temporal's default 50 MiB, under the deployment's 500 MiB. */
function writeLargeHistory(dir: string): void {
  const history = new SdkHistory(
    { enums: 'constant', int64: 'string', nulls: false },
    { workflowType: 'IngestWorkflow', workflowId: 'ingest-1', runId: 'run-1', taskQueue: 'ingest', input: [] },
  ).workflowTask();
  for (let i = 0; i < 4; i++) history.activity('ProcessBatch', [payload.json(i)], [payload.json(i + 1)]);
  const { events } = history.history() as { events: Record<string, { historySizeBytes?: string }>[] };
  const started = events.filter((event) => event.workflowTaskStartedEventAttributes);
  started.forEach((event, i) => {
    const attributes = event.workflowTaskStartedEventAttributes as { historySizeBytes?: string };
    attributes.historySizeBytes = String(Math.round((225 * MiB * (i + 1)) / started.length));
  });
  writeFileSync(join(dir, 'large.json'), JSON.stringify({ events }));
}

const MiB = 1024 * 1024;

describe('check and forecast judge a history by one set of limits', () => {
  // One after the other: each captures the console.
  const both = async (args: string[]) =>
    [
      await printedOver(writeLargeHistory, (dir) => checkCommand.run([dir, ...args])),
      await printedOver(writeLargeHistory, (dir) => forecastCommand.run([dir, ...args])),
    ] as const;

  it("by default the deployment's (history size 500 MiB): check passes 225 MiB, forecast has not hit the limit, both say so", async () => {
    const [check, forecast] = await both([]);
    const line = 'server limits: blob 2 MiB, history size 500 MiB, history count 51,200 events';
    expect(check.text.split('\n')[0]).toBe(line);
    expect(forecast.text.split('\n')[0]).toBe(line);
    expect(check.text).toContain('  pass  history.continue-as-new');
    expect(forecast.text).toMatch(/error 524,288,000 bytes: (at activity \d+|not reached at this growth)/);
  });

  it('with --history-size-limit and --history-count-limit, the same in both: check fails 225 MiB at 50 MiB, forecast says it was hit', async () => {
    const [check, forecast] = await both(['--history-size-limit', String(50 * MiB), '--history-count-limit', '20']);
    const line = 'server limits: blob 2 MiB, history size 50 MiB, history count 20 events';
    expect(check.text.split('\n')[0]).toBe(line);
    expect(forecast.text.split('\n')[0]).toBe(line);
    expect(check.text).toContain('  FAIL  history.continue-as-new');
    expect(check.text).toContain('>= history size limit 52,428,800');
    expect(check.text).toContain('28 events >= history count limit 20');
    expect(forecast.text).toMatch(/error 52,428,800 bytes: hit at activity \d+/);
    expect(forecast.text).toMatch(/error 20: hit at activity \d+/);
  });
});
