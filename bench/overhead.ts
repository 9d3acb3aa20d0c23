/**
 * Overhead: time per turn of the kernel under longrun (mocks over HTTP, recording, history
 * fetch, checks, replay) against the bare baseline moving the same payloads through the same
 * server. Repetitions alternate longrun, baseline, longrun, baseline...; each pair uses a seed
 * of its own (fresh plans, a cold screenshot cache for longrun), the same for both sides.
 */
import type { Environment } from '../src/environment/index.ts';
import { holdReplayers } from '../src/runner/replay.ts';
import { runScenario } from '../src/runner/run-scenario.ts';
import { runBaseline } from './baseline/index.ts';
import { withBenchEnvironment } from './bench-environment.ts';
import { benchPlan, benchScenario } from './bench-scenario.ts';
import { type Meter, metered } from './meter.ts';
import { CPU_OVERHEAD_TARGET, type OverheadRatio, overheadRatio } from './stats.ts';

export interface OverheadOptions {
  repetitions: number;
  runs: number;
  concurrency: number;
  targetTokens: number;
}

export interface OverheadSample {
  variant: 'longrun' | 'baseline';
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
  /** Wall time per turn: the target's measure. */
  ratio: OverheadRatio;
  /** CPU per turn (this process and the server): steadier than wall time on a shared machine. */
  cpuRatio: OverheadRatio;
}

export async function measureOverhead(options: OverheadOptions): Promise<OverheadResult> {
  // The replay workers start once, in the warm-up, as in any process that runs scenario after scenario.
  const releaseReplayers = holdReplayers();
  const samples = await withBenchEnvironment(async ({ env, serverPid }) => {
    // A pair of small runs first, not counted: bundles, JIT, connections and replay workers warm up.
    await measurePair(env, serverPid, { ...options, runs: 1, targetTokens: 20_000 }, -1);
    const measured: OverheadSample[] = [];
    for (let repetition = 0; repetition < options.repetitions; repetition++) {
      measured.push(...(await measurePair(env, serverPid, options, repetition)));
    }
    return measured;
  }).finally(releaseReplayers);
  const pairs = (measure: (s: OverheadSample) => number) =>
    Array.from({ length: options.repetitions }, (_, repetition) => {
      const side = (variant: OverheadSample['variant']) => samples.find((s) => s.variant === variant && s.repetition === repetition);
      const [longrun, baseline] = [side('longrun'), side('baseline')];
      return { longrun: longrun ? measure(longrun) : 0, baseline: baseline ? measure(baseline) : 0 };
    });
  return {
    options,
    samples,
    ratio: overheadRatio(pairs((s) => s.msPerTurn)),
    cpuRatio: overheadRatio(pairs((s) => s.cpuMsPerTurn), CPU_OVERHEAD_TARGET),
  };
}

/** longrun, then the baseline on the very same plans; `repetition` -1 is the uncounted warm-up. */
async function measurePair(
  env: Environment,
  serverPid: number | undefined,
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
  const longrun = await metered(serverPid, () => runScenario(scenario, { environment: env }));
  if (!longrun.value.passed) throw new Error(`overhead: ${scenario.name} did not pass its checks on longrun`);
  const turns = longrun.value.totals.turns;

  const plans = Array.from({ length: options.runs }, (_, index) => benchPlan(scenario, index));
  const label = `${scenario.name}-${Date.now().toString(36)}`;
  const maxTurns = scenario.runs.maxTurns;
  const baseline = await metered(serverPid, () => runBaseline(env, plans, { concurrency: options.concurrency, maxTurns, label }));
  if (baseline.value.turns !== turns) throw new Error(`overhead: the baseline made ${baseline.value.turns} turns, longrun ${turns}`);
  const sample = (variant: OverheadSample['variant'], meter: Meter): OverheadSample => ({
    variant,
    repetition,
    turns,
    msPerTurn: meter.wallMs / turns,
    cpuMsPerTurn: (meter.selfCpuMs + meter.serverCpuMs) / turns,
    meter,
  });
  return [sample('longrun', longrun.meter), sample('baseline', baseline.meter)];
}
