/**
 * A run whose foreign replayer crashes is still judged, and so is every other run: the crash is in
 * that run's record, the summary does not pass, and the report (summary.json, junit.xml,
 * report.html) is written with everything that ran. The replayer is a real command that aborts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { afterAll, describe, expect, it } from 'vitest';
import { loadHistory } from '../checks/index.ts';
import { AgentRunHistory } from '../checks/testing/agent-run-history.ts';
import { renderText, writeReport } from '../report/index.ts';
import type { RunRecord, Summary } from '../result/index.ts';
import { type Scenario, scenarioSchema } from '../scenario/index.ts';
import { foreignReplayPlan } from './foreign-replay.ts';
import type { JudgedExecution } from './history-chain.ts';
import type { RunHistoryStream } from './history-stream.ts';
import { type JudgeContext, judgeRun } from './judge.ts';
import { resolveLimits } from './limits.ts';
import { summarize } from './summarize.ts';

const dir = mkdtempSync(join(tmpdir(), 'longrun-judge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run's chain as the history stream hands it to the judging: three turns and its end, or the history given. */
function streamOf(runId: string, history = new AgentRunHistory({ runId }).turns(3).complete()): RunHistoryStream {
  const executions: JudgedExecution[] = history.histories().map((json, i) => ({
    temporalRunId: `${runId}-${i + 1}`,
    loaded: loadHistory(json, { source: `${runId} execution ${i + 1}` }),
    replayable: historyFromJSON(json),
    bytes: JSON.stringify(json).length,
  }));
  return { finish: async () => executions, close: () => {} } as unknown as RunHistoryStream;
}

function summaryOf(scenario: Scenario, runs: RunRecord[]): Summary {
  const now = new Date();
  return summarize({
    scenario,
    runs,
    verdicts: [],
    environment: 'test',
    limits: resolveLimits(scenario, undefined),
    startedAt: now,
    finishedAt: now,
    partial: false,
  });
}

describe('judging a run whose foreign replayer crashes', () => {
  const replays = foreignReplayPlan(
    new Map([
      ['py-v1', { replay: { argv: ['sh', '-c', 'echo "Fatal Python error: Aborted" >&2; kill -ABRT $$'] } }],
      ['py-v2', { replay: { argv: ['true'] } }],
    ]),
  );
  const context: JudgeContext = {
    client: {} as Client,
    checkContext: {},
    replays,
    servedBy: (binary) => [binary],
    refusals: { verdict: () => ({ id: 'requests.accepted', status: 'pass', evidence: ['no request refused'] }) },
  };
  const launched = (runId: string, binary: string) => ({
    runId,
    workflowId: `wf-${runId}`,
    firstRunId: `${runId}-1`,
    binary,
    startedAt: new Date(),
    args: [],
  });

  it('marks that run could not be replayed, judges the others, and the report is written whole', async () => {
    const crashed = await judgeRun(context, launched('py-run-0000', 'py-v1'), undefined, streamOf('py-run-0000'));
    const fine = await judgeRun(context, launched('py-run-0001', 'py-v2'), undefined, streamOf('py-run-0001'));
    const replay = crashed.record.invariants.find((i) => i.id === 'replay.cross-version');
    expect(replay?.status).toBe('fail');
    expect(replay?.evidence[0]).toMatch(/^could not be replayed on py-v1: its replayer \(`sh -c .*`\) exited with SIGABRT after \d\.\d s$/);
    expect(replay?.evidence).toContain('  stderr: Fatal Python error: Aborted');
    expect(fine.record.invariants.find((i) => i.id === 'replay.cross-version')?.status).toBe('pass');

    const scenario = scenarioSchema.parse({
      name: 'py',
      seed: 1,
      target: { external: { binaries: { 'py-v1': { worker: { argv: ['w'] } }, 'py-v2': { worker: { argv: ['w'] } } } } },
      expect: [
        { on: 'py-v1', ends: 'completed' },
        { on: 'py-v2', ends: 'completed' },
      ],
    });
    const summary = summaryOf(scenario, [crashed.record, fine.record]);
    expect(summary.passed).toBe(false);
    expect(summary.unexplained?.map((u) => u.runId)).toEqual(['py-run-0000']);
    const report = await writeReport(summary, { dir: join(dir, 'report') });
    for (const file of ['summary.json', 'junit.xml', 'report.html']) expect(existsSync(join(report, file)), file).toBe(true);
    expect(JSON.parse(readFileSync(join(report, 'summary.json'), 'utf8')).runs).toHaveLength(2);
    expect(readFileSync(join(report, 'junit.xml'), 'utf8')).toContain('could not be replayed on py-v1');
    expect(renderText(summary)).toMatch(/\n {2}py-run-0000 \(py-v1\): could not be replayed on py-v1: its replayer/);
  });
});

describe('judging a foreign run that fails before its first model call', () => {
  it('gives its record the early-end line, which the text summary shows first', async () => {
    const runId = 'own-run-0000';
    const history = new AgentRunHistory({ runId, journalsStart: false, gate: false });
    history.history.failed('Agent workflow failed: originalInput is not iterable', 'ApplicationFailure');
    const context: JudgeContext = {
      client: {} as Client,
      checkContext: {},
      replays: foreignReplayPlan(new Map([['py-v1', { replay: { argv: ['true'] } }]])),
      servedBy: (binary) => [binary],
      refusals: { verdict: () => ({ id: 'requests.accepted', status: 'pass', evidence: ['0 requests to the mocks, none refused'] }) },
      start: { workflowType: 'weatherAgent', template: ['{{runInput}}'], scenarioFile: 'scenarios/own.yaml', callModel: 'call_model' },
    };
    const args = [history.input];
    const { record } = await judgeRun(
      context,
      { runId, workflowId: `wf-${runId}`, firstRunId: `${runId}-1`, binary: 'py-v1', startedAt: new Date(), args },
      undefined,
      streamOf(runId, history),
    );
    expect(record.outcome).toBe('failed');
    expect(record.earlyEnd).toMatch(
      /^run own-run-0000: weatherAgent failed before its first model call \(no call_model in its history\): Agent workflow failed: originalInput is not iterable; it was started with \[\{"runId":"own-run-0000",.{150,}… \(\d+ more characters\) \(target\.external\.args in scenarios\/own\.yaml is \["\{\{runInput\}\}"\], the default: the contract's RunInput\)$/,
    );
    const scenario = scenarioSchema.parse({
      name: 'own',
      seed: 1,
      target: { external: { binaries: { 'py-v1': { worker: { argv: ['w'] } } } } },
      expect: [{ on: 'py-v1', hold: 'all' }],
    });
    const summary = summaryOf(scenario, [record]);
    expect(renderText(summary).split('\n')[2]).toBe(record.earlyEnd);
    expect(summary.unexplained?.[0]?.why).toMatch(/^weatherAgent failed before its first model call/);
  });
});
