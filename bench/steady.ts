/**
 * Steady state: turns per second over a window of continuous load, judging on, for longrun
 * (runScenario: mocks, checks, replay of every run as it ends) and for the peer (the kernel's
 * workflow bare, each run's history then fetched and replayed by the SDK alone). Runs are
 * launched without end, N at once; the turns begun are counted every second, and only those
 * inside the window count, after a warm-up: the start and the last judging of a section are the
 * section's, not longrun's. Sides alternate longrun, peer, peer, longrun... on one server.
 */
import { clearScreenshotCache, type RunPlan } from '../mocks/index.ts';
import { stoppedByInterrupt } from '../src/contract/interrupted.ts';
import type { Environment } from '../src/environment/index.ts';
import { runInputOf } from '../src/runner/launch.ts';
import { holdReplayers } from '../src/runner/replay.ts';
import { runScenario } from '../src/runner/run-scenario.ts';
import { runBaseline } from './baseline/index.ts';
import { type PeerReplayer, startPeerReplayer } from './baseline/peer-replay.ts';
import { withBenchEnvironment } from './bench-environment.ts';
import { benchPlan, benchScenario } from './bench-scenario.ts';
import { bottleneckOf, type Meter, metered } from './meter.ts';
import { type Bottleneck, type OverheadRatio, overheadRatio } from './stats.ts';
import { type CountSample, type WindowRate, windowRate } from './steady-rate.ts';

export interface SteadyOptions {
  windowSeconds: number;
  warmUpSeconds: number;
  concurrency: number;
  targetTokens: number;
  /** longrun/peer pairs. */
  pairs: number;
}

export interface SteadySample extends WindowRate {
  side: 'longrun' | 'peer';
  pair: number;
  /** Over the whole side: this process's and the server's CPU per turn, ms (the window's rate follows it when the cores are full). */
  cpuMsPerTurn: number;
  /** Over the whole side, start to the last run judged. */
  meter: Meter;
  bottleneck: Bottleneck;
}

export interface SteadyResult {
  options: SteadyOptions;
  samples: SteadySample[];
  /** Wall time per turn inside the window, longrun against the peer: the median of the pairs' ratios. */
  ratio: OverheadRatio;
}

/** Turns the peer's plans hold at least, before the clock: more than any side begins in its window. */
const PEER_TURNS_PER_SECOND_BOUND = 40;
const COUNT_EVERY_MS = 1_000;

export async function measureSteady(options: SteadyOptions, log: (line: string) => void): Promise<SteadyResult> {
  const releaseReplayers = holdReplayers();
  const peer = startPeerReplayer();
  try {
    const samples = await withBenchEnvironment(async ({ env, serverPid }) => {
      const measured: SteadySample[] = [];
      for (let pair = 0; pair < options.pairs; pair++) {
        const order: SteadySample['side'][] = pair % 2 === 0 ? ['longrun', 'peer'] : ['peer', 'longrun'];
        for (const side of order) {
          clearScreenshotCache();
          const { value, meter } = await metered(serverPid, () => runSide(env, peer, side, pair, options));
          const { totalTurns, ...rate } = value;
          const cpuMsPerTurn = (meter.selfCpuMs + meter.serverCpuMs) / totalTurns;
          const sample = { side, pair, ...rate, cpuMsPerTurn, meter, bottleneck: bottleneckOf(meter) };
          log(`steady ${side} pair ${pair + 1}: ${sample.turnsPerSecond.toFixed(2)} turns/s over ${sample.seconds.toFixed(1)} s`);
          measured.push(sample);
        }
      }
      return measured;
    });
    const rate = (side: SteadySample['side'], pair: number) => samples.find((s) => s.side === side && s.pair === pair)?.turnsPerSecond ?? 0;
    // ms per turn, so that the ratio reads as the overhead's: above 1, longrun is the slower.
    const pairs = Array.from({ length: options.pairs }, (_, pair) => ({
      longrun: 1000 / rate('longrun', pair),
      baseline: 1000 / rate('peer', pair),
    }));
    return { options, samples, ratio: overheadRatio(pairs) };
  } finally {
    await Promise.all([releaseReplayers(), peer.close()]);
  }
}

/** One side: launches until the window has closed, then stops launching and waits for what is in flight. */
async function runSide(
  env: Environment,
  peer: PeerReplayer,
  side: SteadySample['side'],
  pair: number,
  options: SteadyOptions,
): Promise<WindowRate & { totalTurns: number }> {
  const scenario = benchScenario({
    name: `bench-steady-${pair}`,
    seed: 7700 + pair,
    count: 100_000,
    concurrency: options.concurrency,
    targetTokens: options.targetTokens,
  });
  const windowMs = options.windowSeconds * 1000;
  const fromMs = options.warmUpSeconds * 1000;
  const counts: CountSample[] = [];
  const stop = new AbortController();
  let started = 0;
  let closesAt: NodeJS.Timeout | undefined;
  let counter: NodeJS.Timeout | undefined;
  let totalTurns = 0;
  const count = (turns: number) => counts.push({ atMs: performance.now() - started, turns });
  // The side's clock starts with its worker, after the peer's plans are made; `turns` is read every second where given.
  const begin = (turns?: () => number) => {
    started = performance.now();
    closesAt = setTimeout(() => stop.abort(), fromMs + windowMs + 2 * COUNT_EVERY_MS);
    if (turns) counter = setInterval(() => count(turns()), COUNT_EVERY_MS);
  };
  try {
    if (side === 'longrun') {
      begin();
      const summary = await runScenario(scenario, {
        environment: env,
        signal: stop.signal,
        onProgress: (progress) => count(progress.turns),
        progressEveryMs: COUNT_EVERY_MS,
      });
      // The runs the window's end stopped are longrun's stop, not the kernel's: only the others must hold.
      const ended = summary.runs.filter((r) => !stoppedByInterrupt(r.executions.at(-1)?.reason));
      const failed = ended.filter((r) => r.invariants.some((i) => i.status === 'fail'));
      if (failed.length > 0) throw new Error(`steady: ${failed.length} runs broke an invariant on longrun (${failed[0]?.runId})`);
      totalTurns = summary.totals.turns;
    } else {
      const plans = peerPlans(scenario, (fromMs + windowMs) / 1000);
      let turns = 0;
      await runBaseline(env, plans, {
        concurrency: options.concurrency,
        maxTurns: scenario.runs.maxTurns,
        label: `${scenario.name}-${Date.now().toString(36)}`,
        kernelInput: (plan: RunPlan) => runInputOf(scenario, plan.runId, plan),
        replayer: peer,
        onTurn: () => turns++,
        signal: stop.signal,
        onStarted: () => begin(() => turns),
      });
      if (!stop.signal.aborted) throw new Error(`steady: the peer ran out of its ${plans.length} plans before the window closed`);
      totalTurns = turns;
    }
  } finally {
    clearTimeout(closesAt);
    clearInterval(counter);
  }
  return { ...windowRate(counts, fromMs, windowMs), totalTurns };
}

/** The plans runScenario's mocks make for the same scenario, enough for `seconds` at the bound's rate. */
function peerPlans(scenario: ReturnType<typeof benchScenario>, seconds: number): RunPlan[] {
  const plans: RunPlan[] = [];
  for (let turns = 0; turns < PEER_TURNS_PER_SECOND_BOUND * seconds; ) {
    const plan = benchPlan(scenario, plans.length);
    plans.push(plan);
    turns += plan.turns.length;
  }
  return plans;
}
