/**
 * The figures of a bench report (`npm run bench` writes reports/bench/<time>.json): throughput
 * per run size and concurrency, the overhead ratios, the scale run's memory, the production
 * month's throughput, violations, tokens and memory, and start-up. Only the fields compared are
 * read (the bench's own types live in bench/, which no production module imports); a section the
 * report lacks gives no figure.
 */
import { z } from 'zod';
import { type Figure, figure, MIB } from './figure.ts';

const n = z.number();
const meterSchema = z.object({ selfPeakRssBytes: n, serverPeakRssBytes: n });

export const benchReportSchema = z.object({
  startedAt: z.string(),
  commit: z.string(),
  machine: z.object({ cpus: n }),
  throughput: z.array(z.object({ size: z.string(), concurrency: n, turns: n, requestBytes: n, turnsPerSecond: n })).optional(),
  overhead: z.object({ ratio: z.object({ ratio: n }), cpuRatio: z.object({ ratio: n }) }).optional(),
  scale: z.object({ turns: n, requestBytes: n, workerPeakRssBytes: n, meter: meterSchema }).optional(),
  month: z
    .object({
      partial: z.boolean(),
      wallSeconds: n,
      runsCompleted: n,
      runsWithViolations: n,
      turns: n,
      tokens: z.object({ agentWithCompaction: n, compaction: n }),
      meter: meterSchema,
    })
    .optional(),
  startup: z.array(z.object({ mode: z.string(), command: z.string(), medianMs: n })).optional(),
});
export type BenchReport = z.infer<typeof benchReportSchema>;

export function benchFigures(report: BenchReport): Figure[] {
  const figures: Figure[] = [];
  for (const s of report.throughput ?? []) {
    const of = `${s.size}x${s.concurrency}`;
    figures.push(figure('turns-per-second', `turns/s, ${s.size} runs ${s.concurrency} at once`, s.turnsPerSecond, of));
  }
  if (report.overhead) {
    figures.push(
      figure('overhead', 'overhead, time per turn (x baseline)', report.overhead.ratio.ratio, 'time'),
      figure('overhead', 'overhead, CPU per turn (x baseline)', report.overhead.cpuRatio.ratio, 'cpu'),
    );
  }
  const { scale, month } = report;
  if (scale) {
    figures.push(
      figure('worker-rss-max', 'scale: worker RSS max, MiB', scale.workerPeakRssBytes / MIB, 'scale'),
      figure('server-rss-max', 'scale: server RSS max, MiB', scale.meter.serverPeakRssBytes / MIB, 'scale'),
      figure(
        'request-bytes-per-turn',
        'scale: request bytes per turn',
        scale.turns > 0 ? scale.requestBytes / scale.turns : undefined,
        'scale',
      ),
    );
  }
  if (month) {
    figures.push(
      figure('turns-per-second', 'month: turns/s', month.wallSeconds > 0 ? month.turns / month.wallSeconds : undefined, 'month'),
      figure('violations', 'month: runs with violations', month.runsWithViolations, 'month'),
      figure('tokens', 'month: input tokens', month.tokens.agentWithCompaction + month.tokens.compaction, 'month'),
      figure('worker-rss-max', 'month: worker RSS max, MiB', month.meter.selfPeakRssBytes / MIB, 'month'),
      figure('server-rss-max', 'month: server RSS max, MiB', month.meter.serverPeakRssBytes / MIB, 'month'),
      figure('runs', 'month: runs completed', month.runsCompleted, 'month'),
    );
  }
  for (const s of report.startup ?? []) {
    figures.push(figure('startup-ms', `start-up, ${s.mode}: ${s.command}, ms`, s.medianMs, `${s.mode} ${s.command}`));
  }
  return figures;
}
