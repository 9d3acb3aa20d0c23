/**
 * Overhead: time per turn of the kernel under longrun (mocks over HTTP, recording, history
 * reading, checks, replay) against the bare baseline moving the same payloads through the same
 * server, and, between the two, the kernel's own workflow run bare (its activities answering
 * from memory, no harness), which tells what longrun adds from what the kernel itself costs.
 * The fourth side, the peer, is that bare kernel with each run's history then fetched and
 * replayed by the SDK alone (bench/baseline/peer-replay.ts): what a team that wants its runs
 * replay-checked writes by hand, and the fair measure of longrun's cost.
 * Repetitions turn the sides' order; each repetition (a "pair") uses a seed of its own (fresh
 * plans, a cold screenshot cache for every side), the same for every side.
 */
import { clearScreenshotCache, type RunPlan } from '../mocks/index.ts';
import type { Environment } from '../src/environment/index.ts';
import { runInputOf } from '../src/runner/launch.ts';
import { holdReplayers } from '../src/runner/replay.ts';
import { runScenario } from '../src/runner/run-scenario.ts';
import { runBaseline } from './baseline/index.ts';
import { type PeerReplayer, startPeerReplayer } from './baseline/peer-replay.ts';
import { withBenchEnvironment } from './bench-environment.ts';
import { benchPlan, benchScenario } from './bench-scenario.ts';
import { type Meter, metered } from './meter.ts';
import { CPU_OVERHEAD_TARGET, type OverheadRatio, overheadRatio, PEER_CPU_TARGET } from './stats.ts';

export interface OverheadOptions {
  repetitions: number;
  runs: number;
  concurrency: number;
  targetTokens: number;
}

export interface OverheadSample {
  /** longrun; the kernel's workflow bare; the baseline workflow; the bare kernel followed by the SDK's replay. */
  variant: 'longrun' | 'kernel' | 'baseline' | 'peer';
  repetition: number;
  turns: number;
  msPerTurn: number;
  /** CPU of this process and the server, per turn. */
  cpuMsPerTurn: number;
  meter: Meter;
}

export interface OverheadResult {
  options: OverheadOptions;
  samples: OverheadSample[];
  /** Wall time per turn, longrun against the baseline: the target's measure. */
  ratio: OverheadRatio;
  /** CPU per turn (this process and the server): steadier than wall time on a shared machine. */
  cpuRatio: OverheadRatio;
  /** Wall and CPU per turn, longrun against the bare kernel: what the harness adds. */
  harness: { ratio: OverheadRatio; cpuRatio: OverheadRatio };
  /** Wall and CPU per turn, the bare kernel against the baseline: what the kernel's own workflow costs. */
  kernel: { ratio: OverheadRatio; cpuRatio: OverheadRatio };
  /** Wall and CPU per turn, longrun against the peer (the bare kernel, then the SDK's replay of its histories). */
  peer: { ratio: OverheadRatio; cpuRatio: OverheadRatio };
}

export async function measureOverhead(options: OverheadOptions): Promise<OverheadResult> {
  // The replay workers start once, in the warm-up, as in any process that runs scenario after scenario.
  const releaseReplayers = holdReplayers();
  // The peer's replay worker too: started once, held across the pairs.
  const peerReplayer = startPeerReplayer();
  const samples = await withBenchEnvironment(async ({ env, serverPid }) => {
    // A pair of small runs first, not counted: bundles, JIT, connections and replay workers warm up.
    await measurePair(env, serverPid, peerReplayer, { ...options, runs: 1, targetTokens: 20_000 }, -1);
    const measured: OverheadSample[] = [];
    for (let repetition = 0; repetition < options.repetitions; repetition++) {
      measured.push(...(await measurePair(env, serverPid, peerReplayer, options, repetition)));
    }
    return measured;
  }).finally(() => Promise.all([releaseReplayers(), peerReplayer.close()]));
  const pairs = (upper: OverheadSample['variant'], lower: OverheadSample['variant'], measure: (s: OverheadSample) => number) =>
    Array.from({ length: options.repetitions }, (_, repetition) => {
      const side = (variant: OverheadSample['variant']) => samples.find((s) => s.variant === variant && s.repetition === repetition);
      const [longrun, baseline] = [side(upper), side(lower)];
      return { longrun: longrun ? measure(longrun) : 0, baseline: baseline ? measure(baseline) : 0 };
    });
  const wall = (s: OverheadSample) => s.msPerTurn;
  const cpu = (s: OverheadSample) => s.cpuMsPerTurn;
  return {
    options,
    samples,
    ratio: overheadRatio(pairs('longrun', 'baseline', wall)),
    cpuRatio: overheadRatio(pairs('longrun', 'baseline', cpu), CPU_OVERHEAD_TARGET),
    harness: {
      ratio: overheadRatio(pairs('longrun', 'kernel', wall)),
      cpuRatio: overheadRatio(pairs('longrun', 'kernel', cpu), CPU_OVERHEAD_TARGET),
    },
    kernel: {
      ratio: overheadRatio(pairs('kernel', 'baseline', wall)),
      cpuRatio: overheadRatio(pairs('kernel', 'baseline', cpu), CPU_OVERHEAD_TARGET),
    },
    peer: {
      ratio: overheadRatio(pairs('longrun', 'peer', wall)),
      cpuRatio: overheadRatio(pairs('longrun', 'peer', cpu), PEER_CPU_TARGET),
    },
  };
}

const SIDES: readonly OverheadSample['variant'][] = ['longrun', 'kernel', 'baseline', 'peer'];

/**
 * The four sides on the very same plans, in an order that turns with each repetition (longrun
 * first, then second, then third...), so that no side always follows the same one; `repetition`
 * -1 is the uncounted warm-up.
 */
async function measurePair(
  env: Environment,
  serverPid: number | undefined,
  peerReplayer: PeerReplayer,
  options: OverheadOptions,
  repetition: number,
): Promise<OverheadSample[]> {
  const scenario = benchScenario({
    name: `bench-overhead-${repetition < 0 ? 'warm-up' : repetition}`,
    seed: 9000 + repetition,
    count: options.runs,
    concurrency: options.concurrency,
    targetTokens: options.targetTokens,
  });
  const plans = Array.from({ length: options.runs }, (_, index) => benchPlan(scenario, index));
  const label = `${scenario.name}-${Date.now().toString(36)}`;
  const bare = (variant: 'kernel' | 'baseline' | 'peer') =>
    runBaseline(env, plans, {
      concurrency: options.concurrency,
      maxTurns: scenario.runs.maxTurns,
      label,
      ...(variant !== 'baseline' ? { kernelInput: (plan: RunPlan) => runInputOf(scenario, plan.runId, plan) } : {}),
      ...(variant === 'peer' ? { replayer: peerReplayer } : {}),
    });
  const run = async (variant: OverheadSample['variant']): Promise<{ turns: number; meter: Meter }> => {
    // The sides make the same screenshots: each encodes them afresh, whichever goes first.
    clearScreenshotCache();
    if (variant !== 'longrun') {
      const { value, meter } = await metered(serverPid, () => bare(variant));
      return { turns: value.turns, meter };
    }
    const { value, meter } = await metered(serverPid, () => runScenario(scenario, { environment: env }));
    if (!value.passed) throw new Error(`overhead: ${scenario.name} did not pass its checks on longrun`);
    return { turns: value.totals.turns, meter };
  };
  const turn = Math.max(0, repetition) % SIDES.length;
  const measured = new Map<OverheadSample['variant'], { turns: number; meter: Meter }>();
  for (const variant of [...SIDES.slice(turn), ...SIDES.slice(0, turn)]) measured.set(variant, await run(variant));
  const turns = measured.get('longrun')?.turns ?? 0;
  return SIDES.map((variant) => {
    const { turns: made, meter } = measured.get(variant) as { turns: number; meter: Meter };
    if (made !== turns) throw new Error(`overhead: the ${variant} side made ${made} turns, longrun ${turns}`);
    return {
      variant,
      repetition,
      turns,
      msPerTurn: meter.wallMs / turns,
      cpuMsPerTurn: (meter.selfCpuMs + meter.serverCpuMs) / turns,
      meter,
    };
  });
}
