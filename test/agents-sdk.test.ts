/**
 * A real agent framework as the target: the OpenAI Agents SDK on Temporal through
 * @temporalio/openai-agents (examples/agents-sdk, its own package on @temporalio 1.23.0),
 * against the real embedded server. longrun installs and bundles it (the first run: a few
 * minutes), the mock answers its Responses API calls from each run's plan through the run
 * marker, and its tools call the sandbox. With no compaction it loops on TMPRL1103 once its
 * model activity's input passes the scaled blob limit, and is terminated once its history
 * passes the scaled history-size limit; a worker that will not start is one line.
 */
import { describe, expect, it } from 'vitest';
import { resolveScenario, runScenario, type Scenario } from '../src/index.ts';
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
