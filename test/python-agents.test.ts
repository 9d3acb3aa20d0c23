/**
 * Two Python agents under longrun, each as its framework's own sample writes it and started with
 * its own signature (`args: ['{{userRequest}}']`): the OpenAI Agents SDK on Temporal
 * (examples/agents-sdk-py, `ToolsWorkflow.run(question)`) and Pydantic AI's Temporal integration
 * (examples/pydantic-ai-py, `WeatherWorkflow.run(prompt)`), against the real embedded server. The
 * scenarios' build step makes each example's virtual environment from PyPI (python3 -m venv and
 * pip, once per requirements.txt); the hook below runs it first, so that a fresh machine's install
 * (a minute or two) is not charged to a test. The mock model plays each run's plan through the
 * agent's own tools; with no compaction each loops on TMPRL1103 once its model activity's input
 * passes the scaled blob limit, and is terminated once its history passes the scaled history
 * limit, both before the Agents SDK's ten turns. About three minutes once the venvs exist.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRunView, FORECAST_LIMITS, forecastRun, loadHistory, readKernelMappingFile } from '../src/checks/index.ts';
import { resolveScenario, runScenario } from '../src/index.ts';

const ROOT = join(import.meta.dirname, '..');
const EXAMPLES = ['agents-sdk-py', 'pydantic-ai-py'];

async function run(name: string) {
  const { scenario, file } = resolveScenario(name);
  const histories: temporal.api.history.v1.IHistory[] = [];
  const summary = await runScenario(scenario, {
    scenarioFile: file,
    onHistories: async (_record, runHistories) => void histories.push(...(await runHistories())),
  });
  // An unmet expectation says why with the evidence of every failed invariant, so that a failure under load can be read.
  const failed = summary.runs.flatMap((r) =>
    r.invariants.filter((i) => i.status === 'fail').map((i) => `${r.runId} ${i.id}: ${i.evidence.slice(0, 3).join(' | ')}`),
  );
  const unmet = summary.expectations.filter((e) => !e.met).map((e) => `${e.description}: ${e.detail} [${failed.join('; ')}]`);
  return { scenario, summary, histories, unmet };
}

type Summary = Awaited<ReturnType<typeof run>>['summary'];
const verdicts = (summary: Summary, id: string) => summary.runs.map((r) => r.invariants.find((i) => i.id === id)?.status);
const evidence = (summary: Summary, id: string) => summary.runs.flatMap((r) => r.invariants.find((i) => i.id === id)?.evidence ?? []);

/** Every invariant of every run holds or does not apply. */
function everyInvariantHolds(summary: Summary) {
  const broken = summary.runs.flatMap((r) =>
    r.invariants.filter((i) => i.status !== 'pass' && i.status !== 'not-applicable').map((i) => `${r.runId}: ${i.id} ${i.status}`),
  );
  expect(broken).toEqual([]);
  for (const id of ['payload.ceiling', 'wft.no-retry-loop', 'history.no-termination', 'replay.cross-version', 'requests.accepted']) {
    expect(verdicts(summary, id), id).toEqual(summary.runs.map(() => 'pass'));
  }
}

/** Within one of `turn`, for every run. */
const withinOne = (turns: number[], turn: number) => expect(turns.filter((t) => Math.abs(t - turn) > 1)).toEqual([]);

describe('Python agents under longrun', () => {
  // A fresh machine makes both venvs here (python3 -m venv, pip from PyPI: 1-2 minutes each);
  // afterwards the scenarios' build steps find them made and return at once.
  beforeAll(async () => {
    for (const example of EXAMPLES) {
      await promisify(execFile)(process.execPath, [join('examples', 'python-venv.mjs'), join('examples', example)], {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
      });
    }
  }, 900_000);

  it("agents-sdk-py-smoke: ToolsWorkflow plays each run's six turns to their end, its histories replay, every applicable invariant holds", async () => {
    const { summary, unmet } = await run('agents-sdk-py-smoke');
    expect(unmet).toEqual([]);
    // Six turns is the plan's length: the marker at the end of the question tied every request to its plan.
    expect(summary.runs.map((r) => [r.binary, r.outcome, r.turns.length])).toEqual([
      ['agents-sdk-py', 'completed', 6],
      ['agents-sdk-py', 'completed', 6],
    ]);
    expect(evidence(summary, 'replay.cross-version')).toEqual([
      'replayed on agents-sdk-py: identical',
      'replayed on agents-sdk-py: identical',
    ]);
    expect(summary.runs.every((r) => r.turns.every((t) => t.requestBytes > 0))).toBe(true);
    everyInvariantHolds(summary);
  }, 300_000);

  it('agents-sdk-py-chat: a chat agent holds three user messages a run, each by update, and every applicable invariant holds', async () => {
    const { summary, unmet } = await run('agents-sdk-py-chat');
    expect(unmet).toEqual([]);
    expect(summary.unexplained ?? []).toEqual([]);
    // Nine turns over three messages; longrun ended each run after its third answer, the agent idle.
    expect(summary.runs.map((r) => [r.outcome, r.turns.length, r.executions.at(-1)?.reason, r.earlyEnd])).toEqual([
      ['terminated', 9, 'longrun ended the conversation after its last message (3 messages)', undefined],
      ['terminated', 9, 'longrun ended the conversation after its last message (3 messages)', undefined],
    ]);
    expect(evidence(summary, 'rebuild.contract')).toContain(
      '8 turns held to the dialog as it stood (append-only; no compaction to rebuild after)',
    );
    everyInvariantHolds(summary);
  }, 300_000);

  it('agents-sdk-py-chat by signals: each message queued by a signal once the last is answered, end_chat ends the run by itself', async () => {
    const { scenario, file } = resolveScenario('agents-sdk-py-chat');
    const external = (scenario.target as { external: { workflowType: string; conversation: Record<string, unknown> } }).external;
    external.workflowType = 'WeatherSignalChatWorkflow';
    external.conversation.send = { signal: 'user_message', args: ['{{message}}'] };
    external.conversation.end = { signal: 'end_chat', args: [] };
    const summary = await runScenario(scenario, { scenarioFile: file });
    expect(summary.runs.map((r) => [r.outcome, r.turns.length, r.earlyEnd])).toEqual([
      ['completed', 9, undefined],
      ['completed', 9, undefined],
    ]);
    expect(summary.passed).toBe(true);
    everyInvariantHolds(summary);
  }, 300_000);

  it('agents-sdk-py-chat with a stale chat length: the second message is refused, the run is stopped and listed with the reason', async () => {
    const { scenario, file } = resolveScenario('agents-sdk-py-chat');
    const external = (scenario.target as { external: { conversation: { send: { args: unknown[] } } } }).external;
    external.conversation.send.args = [{ user_input: '{{message}}', chat_length: 0 }];
    const summary = await runScenario(scenario, { scenarioFile: file });
    expect(summary.passed).toBe(false);
    expect(summary.runs.map((r) => [r.outcome, r.turns.length])).toEqual([
      ['terminated', 3],
      ['terminated', 3],
    ]);
    expect((summary.unexplained ?? []).map((u) => u.why)).toEqual([
      expect.stringMatching(/answered 1 of its 3 messages; .* at message 2 of 3 \(update process_user_message\): .*Stale chat history/),
      expect.stringMatching(/answered 1 of its 3 messages; .* at message 2 of 3 \(update process_user_message\): .*Stale chat history/),
    ]);
  }, 300_000);

  // With no compaction the model activity's input passes the 256 KiB blob limit: the Agents SDK's
  // before its max_turns (10) ends the run another way, Pydantic AI's later (its turns are smaller).
  it.each([
    ['agents-sdk-py-long', 7],
    ['pydantic-ai-py-long', 18],
  ])(
    '%s: TMPRL1103 after %i turns, each run stopped at its workflow task retry',
    async (name, turns) => {
      const { summary, unmet } = await run(name);
      expect(unmet).toEqual([]);
      expect(summary.runs.map((r) => [r.outcome, r.incidents])).toEqual([
        ['terminated', ['tmprl1103']],
        ['terminated', ['tmprl1103']],
      ]);
      withinOne(
        summary.runs.map((r) => r.turns.length),
        turns,
      );
      expect(verdicts(summary, 'wft.no-retry-loop')).toEqual(['fail', 'fail']);
    },
    300_000,
  );

  it('agents-sdk-py-history-size: the history passes the 1 MiB limit in the 8th turn, the server terminates it, and the forecast from its first half names that turn', async () => {
    const { scenario, summary, histories, unmet } = await run('agents-sdk-py-history-size');
    expect(unmet).toEqual([]);
    expect(summary.runs.map((r) => [r.outcome, r.incidents])).toEqual([
      ['terminated', ['history-size']],
      ['terminated', ['history-size']],
    ]);
    const broke = summary.runs.map((r) => r.turns.length);
    withinOne(broke, 8);
    expect(verdicts(summary, 'history.no-termination')).toEqual(['fail', 'fail']);

    // From the events before the model call of the turn after half, the history's growth (a
    // parabola: each call's input is the dialog so far) carried forward to the limit.
    const limit = scenario.server.dynamicConfig['limit.historySize.error'] as number;
    const limits = { ...FORECAST_LIMITS, historyBytes: [{ name: 'error', value: limit }] };
    const mapping = readKernelMappingFile(join(ROOT, 'examples/agents-sdk-py/mapping.json'));
    expect(histories).toHaveLength(2);
    const forecasts = histories.map((history) => {
      const json = JSON.parse(historyToJSON(history as temporal.api.history.v1.History)) as {
        events: { eventId: string; activityTaskScheduledEventAttributes?: { activityType: { name: string } } }[];
      };
      const calls = json.events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType.name === 'invoke_model_activity');
      const half = Math.floor(calls.length / 2);
      const cut = Number(calls[half]?.eventId);
      const prefix = { events: json.events.filter((e) => Number(e.eventId) < cut) };
      const view = buildRunView([loadHistory(prefix as never, { source: 'agents-sdk-py', mapping })]);
      const forecast = forecastRun(view, limits);
      // Its model calls are its turns, whatever its input (the mapping names them).
      expect(forecast.unit).toBe('turn');
      const [error] = forecast.metrics.historyBytes.limits;
      expect(error).toMatchObject({ value: limit, observed: false });
      // The turn it broke in: its model call is the last the history holds.
      return { predicted: error?.step ?? 0, broke: calls.length };
    });
    expect(forecasts.filter(({ predicted, broke }) => Math.abs(predicted - broke) > 1)).toEqual([]);
  }, 300_000);

  it("agents-sdk-py-chaos: release 2 takes release 1's runs over at turn 2, survives a kill at turn 6, and every run ends on it and is judged", async () => {
    const { summary, unmet } = await run('agents-sdk-py-chaos');
    expect(unmet).toEqual([]);
    expect(summary.runs.map((r) => [r.binary, r.outcome, r.turns.length])).toEqual([
      ['agents-sdk-py-v2', 'completed', 9],
      ['agents-sdk-py-v2', 'completed', 9],
    ]);
    // The upgrade and the kill both struck; the runs were judged on the release that ended them.
    expect(summary.expectations.map((e) => e.description)).toEqual(
      expect.arrayContaining([
        'chaos: upgrade-worker to agents-sdk-py-v2 at turn 2',
        'chaos: kill-worker (both) at turn 6',
        'chaos: every run is judged by an expectation on the binary that ran it last',
      ]),
    );
    everyInvariantHolds(summary);
  }, 400_000);

  it("pydantic-ai-py-smoke: WeatherWorkflow plays each run's six turns to their end, its histories replay, every applicable invariant holds", async () => {
    const { summary, unmet } = await run('pydantic-ai-py-smoke');
    expect(unmet).toEqual([]);
    expect(summary.runs.map((r) => [r.binary, r.outcome, r.turns.length])).toEqual([
      ['pydantic-ai-py', 'completed', 6],
      ['pydantic-ai-py', 'completed', 6],
    ]);
    expect(summary.runs.every((r) => r.turns.every((t) => t.requestBytes > 0))).toBe(true);
    everyInvariantHolds(summary);
  }, 300_000);

  it.each([
    ['agents-sdk-py', 'agents-sdk-py-run-0001.json'],
    ['pydantic-ai-py', 'pydantic-ai-py-run-0001.json'],
  ])(
    '%s: its replayer passes a recorded history and fails the same history with one activity renamed, with a last line naming the nondeterminism',
    async (example, file) => {
      const folder = join(ROOT, 'examples', example);
      const replay = (history: string) =>
        promisify(execFile)(join(folder, '.venv/bin/python'), ['replay.py', history], { cwd: folder }).then(
          () => ({ code: 0, stderr: '' }),
          (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
        );
      const recorded = join(folder, 'testdata', file);
      expect(await replay(recorded)).toEqual({ code: 0, stderr: '' });
      const history = JSON.parse(readFileSync(recorded, 'utf8')) as {
        events: { activityTaskScheduledEventAttributes?: { activityType: { name: string } } }[];
      };
      const scheduled = history.events.find((e) => e.activityTaskScheduledEventAttributes)?.activityTaskScheduledEventAttributes;
      if (!scheduled) throw new Error(`${file} schedules no activity`);
      scheduled.activityType.name = 'renamed_activity';
      const broken = join(mkdtempSync(join(tmpdir(), 'longrun-py-replay-')), file);
      writeFileSync(broken, JSON.stringify(history));
      const { code, stderr } = await replay(broken);
      expect(code).toBe(1);
      expect(stderr.trim().split('\n').at(-1)).toMatch(/Nondeterminism.*renamed_activity/);
    },
    120_000,
  );
});
