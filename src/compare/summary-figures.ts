/** The figures of a summary.json: throughput, turn latency, memory, violations, invariant fails, request bytes, input tokens. */
import type { ProcessMetrics, Summary } from '../result/index.ts';
import type { CompareKey } from '../scenario/compare-schema.ts';
import { type Figure, figure, MIB } from './figure.ts';

const PROCESSES = ['worker', 'server', 'database'] as const;

export function summaryFigures(summary: Summary): Figure[] {
  const { totals, load } = summary;
  const figures: Figure[] = [
    figure('turns-per-second', 'turns/s', load?.overall.turnsPerSecond),
    figure('runs-per-second', 'runs/s', load?.overall.runsPerSecond),
    // A summary without a turn has percentiles of nothing: not a latency of 0.
    figure('p50', 'turn latency p50, ms', totals.turns > 0 ? totals.latency.p50 : undefined),
    figure('p95', 'turn latency p95, ms', totals.turns > 0 ? totals.latency.p95 : undefined),
    figure('p99', 'turn latency p99, ms', totals.turns > 0 ? totals.latency.p99 : undefined),
  ];
  for (const role of PROCESSES) {
    const metrics: ProcessMetrics | undefined = load?.[role];
    // The worker is always sampled; the server and the database only where they are found.
    if (!metrics && role !== 'worker') continue;
    figures.push(
      figure(`${role}-rss-max` as CompareKey, `${role} RSS max, MiB`, metrics && metrics.rssBytes.max / MIB),
      figure(`${role}-rss-growth` as CompareKey, `${role} RSS growth, MiB/h`, metrics?.rssGrowthMbPerHour),
    );
  }
  figures.push(figure('violations', 'violations', totals.violations));
  for (const [id, fails] of invariantFails(summary)) figures.push(figure('invariant-fails', `fails: ${id}`, fails, id));
  figures.push(
    figure('request-bytes-per-turn', 'request bytes per turn', totals.turns > 0 ? totals.requestBytes / totals.turns : undefined),
    figure('request-bytes', 'request bytes', totals.requestBytes),
    figure('runs', 'runs', totals.runs),
    figure('turns', 'turns', totals.turns),
  );
  // Per turn, as the request bytes: a soak's total grows with its throughput. A summary written
  // before the mocks counted tokens has none: beside one that has, the figure is shown, not judged.
  if (totals.inputTokens) figures.push(figure('tokens-per-turn', 'input tokens per turn', tokensPerTurn(totals)));
  return figures;
}

/** Runs failing each invariant the summary judged, in the order first judged. */
function invariantFails(summary: Summary): Map<string, number> {
  const fails = new Map<string, number>();
  for (const run of summary.runs) {
    for (const { id, status } of run.invariants) fails.set(id, (fails.get(id) ?? 0) + (status === 'fail' ? 1 : 0));
  }
  return fails;
}

function tokensPerTurn({ inputTokens, turns }: Summary['totals']): number | undefined {
  return inputTokens && turns > 0 ? (inputTokens.agent + inputTokens.compaction) / turns : undefined;
}
