/**
 * A real agent framework as the target: the OpenAI Agents SDK on Temporal through
 * @temporalio/openai-agents (examples/agents-sdk, its own package on @temporalio 1.23.0),
 * against the real embedded server. longrun installs and bundles it (the first run: a few
 * minutes), the mock answers its Responses API calls from each run's plan through the run
 * marker, and its tools call the sandbox. With no compaction it loops on TMPRL1103 once its
 * model activity's input passes the scaled blob limit, and is terminated once its history
 * passes the scaled history-size limit; a worker that will not start is one line. A second
 * agent, written as Temporal's samples write one (a question in, its own getWeather tool), holds
 * with every planned call played as a getWeather call; started with the contract's RunInput
 * instead, it fails before its first model call and the summary says so first, in one line.
 */
import type { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { resolveScenario, runScenario, type Scenario } from '../src/index.ts';
import { renderText } from '../src/report/index.ts';
import { ExternalTargetError } from '../src/runner/external-harness.ts';

async function run(name: string) {
  const { scenario, file } = resolveScenario(name);
  return runScenario(scenario, { scenarioFile: file });
}

type Summary = Awaited<ReturnType<typeof run>>;
const verdicts = (summary: Summary, id: string) => summary.runs.map((r) => r.invariants.find((i) => i.id === id)?.status);

describe('the OpenAI Agents SDK under longrun', () => {
  it("agents-sdk-smoke: the agent plays each run's plan to its end, its histories replay, the generic invariants hold", async () => {
    const summary = await run('agents-sdk-smoke');
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    // Six turns is the plan's length: the marker tied every Responses request to its run's plan.
    expect(summary.runs.map((r) => [r.binary, r.outcome, r.turns.length])).toEqual([
      ['agents-sdk', 'completed', 6],
      ['agents-sdk', 'completed', 6],
    ]);
    const replays = summary.runs.flatMap((r) => r.invariants.find((i) => i.id === 'replay.cross-version')?.evidence ?? []);
    expect(replays).toEqual(['replayed on agents-sdk: identical', 'replayed on agents-sdk: identical']);
    // The SDK's Responses items read as Chat messages: every request checked, its bytes counted.
    expect(summary.runs.map((r) => r.invariants.find((i) => i.id === 'rebuild.contract')?.evidence)).toEqual([
      [
        '6 requests checked for tool contiguity; 0 rebuilds',
        '6 requests read from Responses API items into Chat messages; append-only between turns',
        '5 turns held to the dialog as it stood (append-only; no compaction to rebuild after)',
      ],
      [
        '6 requests checked for tool contiguity; 0 rebuilds',
        '6 requests read from Responses API items into Chat messages; append-only between turns',
        '5 turns held to the dialog as it stood (append-only; no compaction to rebuild after)',
      ],
    ]);
    expect(summary.runs.every((r) => r.turns.every((t) => t.requestBytes > 0))).toBe(true);
    // No compaction, journal or ContinueAsNew to judge in a framework that has none.
    for (const id of ['compaction.trigger', 'compaction.card', 'journal.chain', 'can.carry-over']) {
      expect(verdicts(summary, id)).toEqual(['not-applicable', 'not-applicable']);
    }
    // The first run installs the example (npm ci) and bundles its workflow.
  }, 600_000);

  it('agents-sdk-long: with no compaction the model activity passes the 256 KiB blob limit after 19 turns: TMPRL1103', async () => {
    const summary = await run('agents-sdk-long');
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    expect(summary.runs.map((r) => [r.incidents, r.turns.length])).toEqual([
      [['tmprl1103'], 19],
      [['tmprl1103'], 19],
    ]);
    expect(verdicts(summary, 'wft.no-retry-loop')).toEqual(['fail', 'fail']);
  }, 300_000);

  it('agents-sdk-history-size: with no ContinueAsNew the history passes the 2 MiB limit in its 20th turn and the server terminates it', async () => {
    const summary = await run('agents-sdk-history-size');
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    expect(summary.runs.map((r) => [r.outcome, r.incidents, r.turns.length])).toEqual([
      ['terminated', ['history-size'], 20],
      ['terminated', ['history-size'], 20],
    ]);
    expect(verdicts(summary, 'history.no-termination')).toEqual(['fail', 'fail']);
  }, 300_000);

  it('agents-sdk-soak: two minutes at concurrency 4 with model 429s and 503s: every run ends by itself, the soak thresholds are met', async () => {
    const summary = await run('agents-sdk-soak');
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    expect(summary.runs.length).toBeGreaterThan(4);
    expect(summary.runs.every((r) => r.outcome === 'completed')).toBe(true);
  }, 600_000);
});

type History = temporal.api.history.v1.IHistory;

/** A payload's JSON (the SDK's default converter writes json/plain). */
function payloadJson(payload: temporal.api.common.v1.IPayload | undefined): unknown {
  return payload?.data ? JSON.parse(Buffer.from(payload.data).toString('utf8')) : undefined;
}

/** Every activity a history scheduled, by type, with its input and (once completed) its result. */
function activitiesOf(history: History): { type: string; input: unknown; result: unknown }[] {
  const byId = new Map<string, { type: string; input: unknown; result: unknown }>();
  for (const event of history.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) {
      byId.set(String(event.eventId), {
        type: scheduled.activityType?.name ?? '',
        input: payloadJson(scheduled.input?.payloads?.[0]),
        result: undefined,
      });
    }
    const completed = event.activityTaskCompletedEventAttributes;
    const activity = completed ? byId.get(String(completed.scheduledEventId)) : undefined;
    if (completed && activity) activity.result = payloadJson(completed.result?.payloads?.[0]);
  }
  return [...byId.values()];
}

/** The function calls of a model answer (the SDK's output items). */
function functionCalls(answer: unknown): { name: string; arguments: string }[] {
  const output = (answer as { output?: { type?: string; name?: string; arguments?: string }[] } | undefined)?.output ?? [];
  return output.filter((item) => item.type === 'function_call').map((item) => ({ name: item.name ?? '', arguments: item.arguments ?? '' }));
}

describe("an Agents SDK agent with its own signature and tools (Temporal's sample's way)", () => {
  it("agents-sdk-own-tools: weatherAgent(question) holds, and every planned tool call is a call of the agent's own getWeather", async () => {
    const { scenario, file } = resolveScenario('agents-sdk-own-tools');
    const histories: History[][] = [];
    const summary = await runScenario(scenario, {
      scenarioFile: file,
      onHistories: async (_record, fetch) => {
        histories.push(await fetch());
      },
    });
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    expect(summary.unexplained).toBeUndefined();
    expect(summary.runs.map((r) => [r.binary, r.outcome, r.turns.length, r.earlyEnd])).toEqual([
      ['agents-sdk', 'completed', 6, undefined],
      ['agents-sdk', 'completed', 6, undefined],
    ]);
    expect(summary.runs.map((r) => r.invariants.find((i) => i.id === 'replay.cross-version')?.evidence)).toEqual([
      ['replayed on agents-sdk: identical'],
      ['replayed on agents-sdk: identical'],
    ]);
    expect(histories).toHaveLength(2);
    for (const chain of histories) {
      const activities = chain.flatMap(activitiesOf);
      // The model and the agent's own tool, nothing of longrun's sandbox.
      expect(new Set(activities.map((a) => a.type))).toEqual(new Set(['invokeModelActivity', 'getWeather']));
      const modelCalls = activities.filter((a) => a.type === 'invokeModelActivity');
      expect(modelCalls).toHaveLength(6);
      const calls = modelCalls.flatMap((a) => functionCalls(a.result));
      expect(calls.length).toBeGreaterThan(0);
      // Every call the mock model made is to getWeather, with arguments its schema takes.
      expect(calls.filter((c) => c.name !== 'getWeather')).toEqual([]);
      for (const call of calls) expect(typeof (JSON.parse(call.arguments) as { city?: unknown }).city).toBe('string');
      const weather = activities.filter((a) => a.type === 'getWeather');
      expect(weather).toHaveLength(calls.length);
      expect(weather.every((a) => typeof a.result === 'string' && a.result.includes('Partly cloudy'))).toBe(true);
    }
  }, 600_000);

  it('started with the default arguments (the RunInput object), it fails before its first model call, and the summary says so in one line first', async () => {
    const { scenario, file } = resolveScenario('agents-sdk-own-tools');
    if (!('external' in scenario.target)) throw new Error('agents-sdk-own-tools has no external target');
    const defaulted: Scenario = {
      ...scenario,
      runs: { ...scenario.runs, count: 1, concurrency: 1 },
      target: { external: { ...scenario.target.external, args: ['{{runInput}}'] } },
    };
    const summary = await runScenario(defaulted, { scenarioFile: file });
    expect(summary.passed).toBe(false);
    expect(summary.runs.map((r) => [r.outcome, r.turns.length])).toEqual([['failed', 0]]);
    const line = summary.runs[0]?.earlyEnd ?? '';
    expect(line).toMatch(
      /^run agents-sdk-own-tools-run-0000: weatherAgent failed before its first model call \(no invokeModelActivity in its history\): [^;]*originalInput is not iterable[^;]*; it was started with \[\{"runId":"agents-sdk-own-tools-run-0000","systemPrompt":".{100,}… \(\d+ more characters\) \(target\.external\.args in scenarios\/agents-sdk-own-tools\.yaml is \["\{\{runInput\}\}"\], the default: the contract's RunInput\)$/,
    );
    expect(renderText(summary).split('\n')[2]).toBe(line);
  }, 600_000);
});

describe('an Agents SDK worker that will not start', () => {
  it('is one line naming its command', async () => {
    const { scenario, file } = resolveScenario('agents-sdk-smoke');
    if (!('external' in scenario.target)) throw new Error('agents-sdk-smoke has no external target');
    const { external } = scenario.target;
    const worker = { argv: ['node', '--import', 'tsx', 'src/no-such-worker.ts'], cwd: '../examples/agents-sdk' };
    const broken: Scenario = {
      ...scenario,
      target: { external: { ...external, binaries: { 'agents-sdk': { worker, startsRuns: true } } } },
    };
    const failure = await runScenario(broken, { scenarioFile: file }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExternalTargetError);
    expect((failure as Error).message).toMatch(
      /^foreign worker agents-sdk \(`node --import tsx src\/no-such-worker\.ts` in \S+\/examples\/agents-sdk\) exited with code 1 after \d+(\.\d)? s: [^\n]+$/,
    );
  }, 300_000);
});
