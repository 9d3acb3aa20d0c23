/**
 * The month's floor: the same production-shaped plans run as a team without longrun would run
 * them, on the same server kind (SQLite in a file) at the same concurrency: the kernel's
 * workflow bare (activities answering from memory, no HTTP, no checks), each run's history then
 * fetched and replayed by the SDK alone, and the run deleted, as longrun's month deletes it.
 * `measureMonthPairs` runs both sides in turn (longrun, peer; peer, longrun; ...) in one sitting.
 */
import { clearScreenshotCache } from '../mocks/index.ts';
import { prepareRuns } from './baseline/index.ts';
import { runPeerSide } from './baseline/peer-side.ts';
import { withBenchEnvironment } from './bench-environment.ts';
import { benchPlan } from './bench-scenario.ts';
import { bottleneckOf, type Meter, metered } from './meter.ts';
import { type MonthOptions, type MonthResult, measureMonth, monthScenario } from './month.ts';
import { type Bottleneck, median } from './stats.ts';

export interface MonthSide {
  side: 'longrun' | 'peer';
  pair: number;
  wallSeconds: number;
  turns: number;
  historyBytes: number;
  meter: Meter;
  bottleneck: Bottleneck;
}

export interface MonthAgainstPeer {
  /** Every side measured, in the order run. */
  sides: MonthSide[];
  /** The pairs' peer wall times, their median. */
  peerWallSeconds: number;
  /** longrun's wall time over the peer's, the median of the pairs' ratios. */
  peerRatio: number;
}

export async function measurePeerMonth(options: MonthOptions, pair: number): Promise<MonthSide> {
  const scenario = monthScenario(options);
  const plans = Array.from({ length: options.runs }, (_, index) => benchPlan(scenario, index));
  clearScreenshotCache();
  // The tool outputs are made before the meter starts: the peer answers from memory.
  const prepared = prepareRuns(plans);
  const { value, meter } = await withBenchEnvironment(
    ({ env, serverPid }) =>
      metered(serverPid, () =>
        runPeerSide(env, scenario, plans, {
          label: `month-${pair}`,
          prepared,
          ...(options.signal ? { signal: options.signal } : {}),
          // Deleted once replayed, as longrun's month deletes each run once judged.
          onReplayed: (workflowId) =>
            env.client.workflowService.deleteWorkflowExecution({ namespace: env.namespace, workflowExecution: { workflowId } }).then(
              () => {},
              () => {},
            ),
        }),
      ),
    { onDisk: true },
  );
  return {
    side: 'peer',
    pair,
    wallSeconds: meter.wallMs / 1000,
    turns: value.turns,
    historyBytes: value.historyBytes,
    meter,
    bottleneck: bottleneckOf(meter),
  };
}

/**
 * `pairs` pairs of months, longrun first in even pairs and the peer first in odd ones; the
 * first longrun month's full result, and every side's time and CPU.
 */
export async function measureMonthPairs(
  options: MonthOptions,
  pairs: number,
  log: (line: string) => void,
): Promise<MonthResult & MonthAgainstPeer> {
  const sides: MonthSide[] = [];
  let first: MonthResult | undefined;
  for (let pair = 0; pair < pairs && !options.signal?.aborted; pair++) {
    for (const side of pair % 2 === 0 ? (['longrun', 'peer'] as const) : (['peer', 'longrun'] as const)) {
      if (options.signal?.aborted) break;
      if (side === 'peer') {
        sides.push(await measurePeerMonth(options, pair));
      } else {
        const month = await measureMonth(options, log);
        first ??= month;
        const { wallSeconds, turns, historyBytes, meter, bottleneck } = month;
        sides.push({ side, pair, wallSeconds, turns, historyBytes, meter, bottleneck });
      }
      const done = sides.at(-1) as MonthSide;
      log(`month ${done.side} pair ${pair + 1}: ${done.wallSeconds.toFixed(1)} s, ${done.turns} turns; ${done.bottleneck.limit}`);
    }
  }
  if (!first) throw new Error("month: stopped before longrun's month was measured");
  return { ...first, sides, ...againstPeer(sides) };
}

/** The median peer month and the median of the pairs' ratios (pairs with both sides only). */
export function againstPeer(sides: readonly Pick<MonthSide, 'side' | 'pair' | 'wallSeconds'>[]): Omit<MonthAgainstPeer, 'sides'> {
  const of = (side: MonthSide['side'], pair: number) => sides.find((s) => s.side === side && s.pair === pair)?.wallSeconds;
  const ratios: number[] = [];
  const peers: number[] = [];
  for (const pair of new Set(sides.map((s) => s.pair))) {
    const [longrun, peer] = [of('longrun', pair), of('peer', pair)];
    if (peer === undefined) continue;
    peers.push(peer);
    if (longrun !== undefined) ratios.push(longrun / peer);
  }
  return { peerWallSeconds: median(peers), peerRatio: median(ratios) };
}
