/**
 * Judging throughput in one process against two `longrun harness-worker` processes on a harness
 * task queue, side by side in one sitting: a scenario's runs are run once, then judged again and
 * again, in-process (`judgeRun`, two at once) and on the queue (each run its judging workflow),
 * in the order ABBA after an uncounted warm-up of each. Prints turns judged per second.
 *
 *   node --import tsx bench/judging-queue.ts [runs per binary, default 3]
 */
import { queueJudge } from '../src/distributed/queue-judge.ts';
import { spawnHarnessWorker, stopHarnessWorkers } from '../src/distributed/testing/harness-workers.ts';
import { startEnvironment } from '../src/environment/index.ts';
import type { BinaryId } from '../src/kernel/index.ts';
import { judgeRun } from '../src/runner/judge.ts';
import { JudgingPool } from '../src/runner/judging-pool.ts';
import { checkContextOf, resolveLimits } from '../src/runner/limits.ts';
import { holdReplayers, kernelReplayPlan } from '../src/runner/replay.ts';
import { runScenario } from '../src/runner/run-scenario.ts';
import { resolveScenario, type Scenario } from '../src/scenario/index.ts';
import { launchedOf } from './launched-run.ts';

const perBinary = Number(process.argv[2] ?? 3);
const base = resolveScenario('cross-version-replay').scenario;
const scenario: Scenario = { ...base, runs: { ...base.runs, count: perBinary } };
const inPlay = (scenario.target as { binaries: BinaryId[] }).binaries;
const QUEUE = 'bench-judging-queue';
const passing = { id: 'requests.accepted' as const, status: 'pass' as const, evidence: [] };

const env = await startEnvironment({ ...scenario.server });
const release = holdReplayers();
const workers = [spawnHarnessWorker(env.address, QUEUE), spawnHarnessWorker(env.address, QUEUE)];
try {
  const summary = await runScenario(scenario, { environment: env });
  const runs = summary.runs.map(launchedOf);
  const turns = summary.totals.turns;
  const checkContext = checkContextOf(scenario, resolveLimits(scenario, env.dynamicConfig));
  const context = {
    client: env.client,
    checkContext,
    replays: kernelReplayPlan(inPlay),
    servedBy: (b: string) => [b],
    refusals: { verdict: () => passing },
  };
  const inProcess = async () => {
    const pool = new JudgingPool(2);
    for (const run of runs) await pool.submit(() => judgeRun(context, run, undefined).then(() => {}));
    await pool.drain();
  };
  const judge = queueJudge(QUEUE);
  // Each repetition's judgings are workflows of their own: their ids carry the seed, set apart here.
  let repetition = 0;
  const onQueue = async () => {
    const seed = scenario.seed + ++repetition;
    await Promise.all(
      runs.map((run) =>
        judge({ client: env.client, scenario: { name: scenario.name, seed }, run, checkContext, inPlay, requestsAccepted: passing }),
      ),
    );
  };
  await Promise.all(workers.map((worker) => worker.ready));
  await inProcess();
  await onQueue();
  const rates: Record<'one process' | 'two harness workers', number[]> = { 'one process': [], 'two harness workers': [] };
  for (const [name, work] of [
    ['one process', inProcess],
    ['two harness workers', onQueue],
    ['two harness workers', onQueue],
    ['one process', inProcess],
  ] as const) {
    const t0 = performance.now();
    await work();
    rates[name].push(turns / ((performance.now() - t0) / 1000));
  }
  console.log(
    `${runs.length} runs, ${turns} turns (${scenario.name}, ${perBinary} a binary, replayed on ${inPlay.join(', ')} as each must)`,
  );
  for (const [name, list] of Object.entries(rates)) console.log(`${name.padEnd(20)} ${list.map((r) => r.toFixed(1)).join(', ')} turns/s`);
  const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  console.log(`ratio (two harness workers / one process): ${(mean(rates['two harness workers']) / mean(rates['one process'])).toFixed(2)}`);
} finally {
  await stopHarnessWorkers(workers);
  await release();
  await env.teardown();
}
