/**
 * `longrun check` and `forecast` over a report's `histories/<workflow id>/` folders (each run's
 * executions grouped in their own folder), and what `check` says in text of an invariant that
 * does not apply: its reason, and the mapping that would judge a model activity it did not find.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunVerdict } from '../src/checks/index.ts';
import { AgentRunHistory } from '../src/checks/testing/agent-run-history.ts';
import { longrun } from './longrun-cli.ts';

let report: string;
let renamed: string;

function write(dir: string, histories: readonly unknown[], rename?: (json: string) => string): void {
  mkdirSync(dir, { recursive: true });
  histories.forEach((history, i) => {
    const json = JSON.stringify(history);
    writeFileSync(join(dir, `execution-${i + 1}.json`), rename ? rename(json) : json);
  });
}

beforeAll(() => {
  report = mkdtempSync(join(tmpdir(), 'longrun-report-folder-'));
  writeFileSync(join(report, 'summary.json'), '{}');
  writeFileSync(join(report, 'junit.xml'), '<testsuites/>');
  write(
    join(report, 'histories', 'wf-a'),
    new AgentRunHistory({ runId: 'run-a' }).turns(2).continueAsNew().turns(2).complete().histories(),
  );
  write(join(report, 'histories', 'wf-b'), new AgentRunHistory({ runId: 'run-b' }).turns(3).complete().histories());
  // A kernel whose model activity has another name: no call_model, but its input is a conversation.
  renamed = join(report, 'other-kernel');
  write(renamed, new AgentRunHistory({ runId: 'run-c' }).turns(2).complete().histories(), (json) =>
    json.replaceAll('{"name":"call_model"}', '{"name":"invoke_model_activity"}'),
  );
});
afterAll(() => rmSync(report, { recursive: true, force: true }));

describe('check and forecast over a report folder', () => {
  it("go into each workflow's folder and keep its executions one run", async () => {
    const check = await longrun(['check', join(report, 'histories'), '--json']);
    // The chain continues as new under its budget, which history.continue-as-new fails: judged, so 1.
    expect(check.code, check.stderr).toBe(1);
    expect(check.stderr).toBe('');
    const runs = (JSON.parse(check.stdout) as { runs: RunVerdict[] }).runs;
    expect(runs.map((run) => [run.runId, run.sources.map((source) => source.slice(report.length + 1))])).toEqual([
      ['run-a', ['histories/wf-a/execution-1.json', 'histories/wf-a/execution-2.json']],
      ['run-b', ['histories/wf-b/execution-1.json']],
    ]);
    // The report folder itself: its summary.json is not a history.
    const whole = await longrun(['forecast', report, '--json']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).toBe('');
    expect((JSON.parse(whole.stdout) as { forecasts: { runId: string }[] }).forecasts.map((f) => f.runId)).toEqual([
      'run-a',
      'run-b',
      'run-c',
    ]);
  });

  it('says in text why an invariant does not apply, and which mapping would judge a model activity it did not find', async () => {
    const check = await longrun(['check', renamed]);
    expect(check.stdout).toContain('  n/a   can.carry-over: not applicable: no ContinueAsNew\n');
    expect(check.stdout).toContain(
      '  n/a   rebuild.contract: not applicable: no call_model activity; invoke_model_activity looks like a model call: --mapping with {"activities":{"callModel":"invoke_model_activity"}} would judge it\n',
    );
    const mapping = join(report, 'mapping.json');
    writeFileSync(mapping, JSON.stringify({ activities: { callModel: 'invoke_model_activity' } }));
    const mapped = await longrun(['check', renamed, '--mapping', mapping]);
    expect(mapped.stdout).not.toContain('looks like a model call');
    expect(mapped.stdout).toMatch(/rebuild\.contract: not applicable: 3 requests checked for tool contiguity/);
  });
});
