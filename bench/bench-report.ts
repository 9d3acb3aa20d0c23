/** The benchmark's result as one JSON object, and the tables printed from it. */

import { formatBytes, formatDuration } from '../src/report/format.ts';
import type { CeilingResult } from './ceiling/run-ceiling.ts';
import type { JudgingResult } from './judging.ts';
import type { MonthResult } from './month.ts';
import type { MonthAgainstPeer, MonthSide } from './month-peer.ts';
import type { OverheadResult, OverheadSample } from './overhead.ts';
import type { ReproResult } from './repro.ts';
import { SCALE_TARGETS, type ScaleResult } from './scale.ts';
import type { StartupSample } from './startup.ts';
import type { Bottleneck, OverheadRatio } from './stats.ts';
import type { SteadyResult } from './steady.ts';
import { formatNumber, type Table } from './table.ts';
import type { ThroughputSample } from './throughput.ts';

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  machine: { cpus: number; memoryBytes: number; node: string; loadAtStart: number[]; loadAtEnd: number[] };
  commit: string;
  ceiling?: CeilingResult;
  overhead?: OverheadResult;
  judging?: JudgingResult;
  steady?: SteadyResult;
  throughput?: ThroughputSample[];
  scale?: ScaleResult;
  /** With `--peer`: the peer's months beside longrun's (`peerWallSeconds`, `peerRatio`, `sides`). */
  month?: MonthResult & Partial<MonthAgainstPeer>;
  repro?: ReproResult;
  startup?: StartupSample[];
}

export function reportTables(report: BenchReport): Table[] {
  const tables: Table[] = [];
  if (report.ceiling) tables.push(ceilingTable(report.ceiling));
  if (report.overhead) tables.push(overheadTable(report.overhead));
  if (report.judging) tables.push(judgingTable(report.judging));
  if (report.steady) tables.push(steadyTable(report.steady));
  if (report.throughput) tables.push(throughputTable(report.throughput));
  if (report.scale) tables.push(scaleTable(report.scale));
  if (report.month) tables.push(monthTable(report.month));
  if (report.month?.sides) tables.push(monthSidesTable(report.month.sides));
  if (report.repro) tables.push(reproTable(report.repro));
  if (report.startup) tables.push(startupTable(report.startup));
  return tables;
}

/** The last four columns of a measured row: cores kept busy by each, and what held it back. */
const CPU_HEADERS = ['server cores', 'main thread', 'other threads', 'limit'];

function cpuColumns(bottleneck: Bottleneck): string[] {
  return [bottleneck.server.toFixed(2), bottleneck.mainThread.toFixed(2), bottleneck.workflowThreads.toFixed(2), bottleneck.limit];
}

export function ceilingTable(result: CeilingResult): Table {
  const notes = [
    `ceiling: ${formatNumber(result.activitiesPerSecond)} activities/s, ${formatNumber(result.historyMBps, 2)} history MB/s (the best configuration of each)`,
  ];
  for (const share of result.longrunShare ?? []) {
    notes.push(
      `${share.inFlight} in flight: longrun ${formatNumber(share.longrunMBps, 2)} MB/s, ${(share.share * 100).toFixed(0)}% of the bare server's ${formatNumber(share.ceilingMBps, 2)} MB/s`,
    );
  }
  for (const share of result.peerShare ?? []) {
    notes.push(
      `${share.inFlight} in flight: the peer (bare kernel, then the SDK's replay) ${formatNumber(share.peerMBps, 2)} MB/s, ${(share.share * 100).toFixed(0)}% of the ceiling${share.longrunOverPeer !== undefined ? `; longrun/peer ${share.longrunOverPeer.toFixed(2)}` : ''}`,
    );
  }
  return {
    title: "The server's ceiling: the simplest workflow, activities of each payload size as fast as the server takes them",
    headers: [
      'payload',
      'in flight',
      'activities',
      'activities/s',
      'history MB/s',
      'server cores',
      'main thread',
      'other threads',
      'limit',
    ],
    rows: result.samples.map((s) => [
      formatBytes(s.payloadBytes),
      String(s.inFlight),
      String(s.activities),
      formatNumber(s.activitiesPerSecond),
      formatNumber(s.historyMBps, 2),
      ...cpuColumns(s.bottleneck),
    ]),
    notes,
  };
}

const met = (r: OverheadRatio) => `target <= ${r.target}: ${r.withinTarget ? 'met' : 'NOT met'}`;
const spread = (r: OverheadRatio, of: string) => `median of ${of}; ${r.minRatio.toFixed(2)}-${r.maxRatio.toFixed(2)}`;

export function overheadTable(result: OverheadResult): Table {
  const { ratio, options } = result;
  const range = (r: OverheadRatio) => spread(r, 'pairs');
  return {
    title: `Overhead: ${options.runs} runs of ${formatNumber(options.targetTokens, 0)} tokens, ${options.concurrency} at once, ${options.repetitions} pairs`,
    headers: [
      'pair',
      'longrun ms/turn',
      'bare kernel ms/turn',
      'baseline ms/turn',
      'peer ms/turn',
      'ratio',
      'peer ratio',
      'turns',
      'longrun cpu s',
      'bare kernel cpu s',
      'baseline cpu s',
      'peer cpu s',
    ],
    rows: Array.from({ length: options.repetitions }, (_, pair) => {
      const side = (variant: OverheadSample['variant']) => {
        const found = result.samples.find((s) => s.variant === variant && s.repetition === pair);
        if (!found) throw new Error(`overhead: pair ${pair} is missing its ${variant} side`);
        return found;
      };
      const [longrun, kernel, baseline, peer] = [side('longrun'), side('kernel'), side('baseline'), side('peer')];
      return [
        String(pair + 1),
        formatNumber(longrun.msPerTurn),
        formatNumber(kernel.msPerTurn),
        formatNumber(baseline.msPerTurn),
        formatNumber(peer.msPerTurn),
        (longrun.msPerTurn / baseline.msPerTurn).toFixed(2),
        (longrun.msPerTurn / peer.msPerTurn).toFixed(2),
        String(longrun.turns),
        ...[longrun, kernel, baseline, peer].map((s) => formatNumber(s.meter.selfCpuMs / 1000)),
      ];
    }),
    notes: [
      `against the peer (the bare kernel, then the SDK's replay of its histories): ${result.peer.ratio.ratio.toFixed(2)} (${range(result.peer.ratio)}), ${met(result.peer.ratio)}`,
      `peer CPU ratio ${result.peer.cpuRatio.ratio.toFixed(2)} (${formatNumber(result.peer.cpuRatio.longrun)} against ${formatNumber(result.peer.cpuRatio.baseline)} ms per turn), ${met(result.peer.cpuRatio)}`,
      `against the bare baseline: ratio ${ratio.ratio.toFixed(2)} (${range(ratio)}), ${met(ratio)}`,
      `CPU ratio ${result.cpuRatio.ratio.toFixed(2)} (this process and the server, per turn: ${formatNumber(result.cpuRatio.longrun)} against ${formatNumber(result.cpuRatio.baseline)} ms), ${met(result.cpuRatio)}`,
      `of which the harness (longrun against the bare kernel): ${result.harness.ratio.ratio.toFixed(2)} (${range(result.harness.ratio)}), CPU ${result.harness.cpuRatio.ratio.toFixed(2)}`,
      `and the kernel's own workflow (the bare kernel against the baseline): ${result.kernel.ratio.ratio.toFixed(2)} (${range(result.kernel.ratio)}), CPU ${result.kernel.cpuRatio.ratio.toFixed(2)}`,
    ],
  };
}

export function judgingTable(result: JudgingResult): Table {
  const { replayRatio: ratio, options } = result;
  const serverFetch = result.repetitions.map((r) => r.serverFetchCpuMs);
  return {
    title: `Judging: ${options.runs} runs of ${formatNumber(options.targetTokens, 0)} tokens (${result.turns} turns, ${formatBytes(result.historyBytes)} of history), judged ${options.repetitions} times, CPU of this process`,
    headers: ['part', 'cpu ms', 'of the bare replay'],
    rows: [
      ...result.breakdown.map((row) => [row.part, formatNumber(row.cpuMs), `${(row.ofBareReplay * 100).toFixed(0)}%`]),
      ['judging (judgeRun whole)', formatNumber(ratio.longrun), `${((ratio.longrun / ratio.baseline) * 100).toFixed(0)}%`],
      ['bare replay (the SDK alone)', formatNumber(ratio.baseline), '100%'],
    ],
    notes: [
      `judging against the SDK's bare replay of the same histories: ${ratio.ratio.toFixed(2)} (${spread(ratio, 'the repetitions')}), ${met(ratio)}`,
      `parts measured one by one, medians; rest: what judgeRun does beyond them (the record, the verdicts) and the noise between passes`,
      `the server's CPU serving the judging's fetch, beside it: ${formatNumber(Math.min(...serverFetch))}-${formatNumber(Math.max(...serverFetch))} ms`,
    ],
  };
}

export function steadyTable(result: SteadyResult): Table {
  const { ratio, options } = result;
  return {
    title: `Steady state: p50 runs (${formatNumber(options.targetTokens / 1000, 0)}k), ${options.concurrency} at once, judging on; turns begun in ${options.windowSeconds} s after ${options.warmUpSeconds} s`,
    headers: ['side', 'pair', 'turns', 'seconds', 'turns/s', 'cpu ms/turn', ...CPU_HEADERS],
    rows: result.samples.map((s) => [
      s.side,
      String(s.pair + 1),
      String(s.turns),
      formatNumber(s.seconds),
      formatNumber(s.turnsPerSecond, 2),
      formatNumber(s.cpuMsPerTurn),
      ...cpuColumns(s.bottleneck),
    ]),
    notes: [
      `longrun against the peer (bare kernel, each run then replayed by the SDK), wall per turn: ${ratio.ratio.toFixed(2)} (${spread(ratio, 'pairs')}), ${met(ratio)}`,
      'CPU columns: the whole side, start to the last run judged (cpu ms/turn: this process and the server)',
    ],
  };
}

export function throughputTable(samples: readonly ThroughputSample[]): Table {
  return {
    title: 'Throughput',
    headers: ['side', 'size', 'at once', 'turns', 'turns/s', 'history MB/s', ...CPU_HEADERS],
    rows: samples.map((s) => [
      s.side,
      `${s.size} (${formatNumber(s.targetTokens / 1000, 0)}k)${s.stopped ? ' window' : ''}`,
      String(s.concurrency),
      String(s.turns),
      formatNumber(s.turnsPerSecond),
      formatNumber(s.historyMBps, 2),
      ...cpuColumns(s.bottleneck),
    ]),
    notes: [
      "peer: the kernel's workflow bare, each run's history then replayed by the SDK alone (turns: runs that ended within the window)",
    ],
  };
}

const peakAgainst = (bytes: number, target: number) =>
  `${formatBytes(bytes)} (target: under ${formatBytes(target)}: ${bytes < target ? 'met' : 'NOT met'})`;

export function scaleTable(result: ScaleResult): Table {
  const cycle = result.fullCycle;
  return {
    title: `Scale: one max-size run (${formatNumber(result.targetTokens / 1000, 0)}k tokens) at production limits`,
    headers: ['measure', 'value'],
    rows: [
      ['wall time', formatDuration(result.meter.wallMs)],
      ['turns', String(result.turns)],
      ['request bytes sent', formatBytes(result.requestBytes)],
      ['largest request', formatBytes(result.largestRequestBytes)],
      ['compactions', String(result.compactions)],
      ['executions (history)', result.executions.map((e) => `${formatBytes(e.historyBytes)} ${e.closedBy}`).join('; ')],
      [
        'full ContinueAsNew cycle',
        cycle
          ? `${cycle.turns} turns, ${formatBytes(cycle.historyBytes)} of history, past the ${cycle.budgetBytes / 2 ** 20} MiB budget`
          : 'none',
      ],
      [
        'peak RSS worker',
        `${peakAgainst(result.workerPeakRssBytes, SCALE_TARGETS.workerPeakRssBytes)}; ${result.workerProcesses.map((p) => `${p.what} ${formatBytes(p.peakRssBytes)}`).join(', ')}`,
      ],
      ['peak RSS longrun (mocks, judging, replay)', peakAgainst(result.longrunPeakRssBytes, SCALE_TARGETS.longrunPeakRssBytes)],
      [
        'CPU worker / longrun / server',
        [result.workerProcesses.reduce((n, p) => n + p.cpuMs, 0), result.meter.selfCpuMs, result.meter.serverCpuMs]
          .map((ms) => `${formatNumber(ms / 1000)} s`)
          .join(' / '),
      ],
      ['peak RSS server', formatBytes(result.meter.serverPeakRssBytes)],
      ['invariants', result.passed ? 'all hold' : 'VIOLATED'],
    ],
    notes: [result.bottleneck.why],
  };
}

export function monthTable(result: MonthResult & Partial<MonthAgainstPeer>): Table {
  const t = result.tokens;
  const billions = (tokens: number) => `${(tokens / 1e9).toFixed(3)} B`;
  return {
    title: `A production month${result.partial ? ' (PARTIAL: stopped)' : ''}: ${result.runs} runs, ${result.concurrency} at once, ${formatNumber(result.bytesPerTurn, 0)} context bytes per turn`,
    headers: ['measure', 'value'],
    rows: [
      ['wall time', `${formatDuration(result.meter.wallMs)} (target: under 10 min for 1,067 runs)`],
      ...(result.peerWallSeconds !== undefined && result.peerRatio !== undefined
        ? [
            [
              "the peer (bare kernel, then the SDK's replay)",
              `${formatDuration(result.peerWallSeconds * 1000)}; longrun/peer ${result.peerRatio.toFixed(2)} (medians of the pairs)`,
            ],
          ]
        : []),
      ['runs completed', `${result.runsCompleted} of ${result.runs}`],
      ['turns', String(result.turns)],
      ['compactions / ContinueAsNew', `${result.compactions} / ${result.continuedAsNew}`],
      ['history written', formatBytes(result.historyBytes)],
      [
        'input tokens with compaction',
        `${billions(t.agentWithCompaction + t.compaction)} (agent ${billions(t.agentWithCompaction)}, compaction model ${billions(t.compaction)})`,
      ],
      ['input tokens without compaction', billions(t.withoutCompaction)],
      ['production, same number of runs', `${billions(t.production)} (tokens: completed runs only)`],
      ['runs with violations', String(result.runsWithViolations)],
      ['peak RSS worker / server', `${formatBytes(result.meter.selfPeakRssBytes)} / ${formatBytes(result.meter.serverPeakRssBytes)}`],
      [
        'machine load (1 min)',
        `start ${result.load.atStart.toFixed(1)}, mean ${result.load.mean.toFixed(1)}, max ${result.load.max.toFixed(1)}`,
      ],
    ],
    notes: [result.bottleneck.why, ...(result.violations ?? []).map((line) => `violation: ${line}`)],
  };
}

export function monthSidesTable(sides: readonly MonthSide[]): Table {
  const seconds = (ms: number) => formatNumber(ms / 1000);
  return {
    title: 'The month against its floor, side by side in the order run',
    headers: ['side', 'pair', 'wall', 'turns', 'server cpu s', 'main thread cpu s', 'other threads cpu s', ...CPU_HEADERS],
    rows: sides.map((s) => [
      s.side,
      String(s.pair + 1),
      formatDuration(s.wallSeconds * 1000),
      String(s.turns),
      seconds(s.meter.serverCpuMs),
      seconds(s.meter.mainThreadCpuMs),
      seconds(s.meter.selfCpuMs - s.meter.mainThreadCpuMs),
      ...cpuColumns(s.bottleneck),
    ]),
    notes: [
      "peer: the same plans on the kernel's workflow bare (answers from memory, no HTTP, no checks), each run's history then replayed by the SDK alone and deleted",
    ],
  };
}

export function reproTable(result: ReproResult): Table {
  return {
    title: 'Reproductions: `longrun repro <incident>`, start to exit',
    headers: ['incident', 'from', 'wall', 'exit', 'target'],
    rows: result.runs.map((run) => [
      run.incident,
      run.form,
      formatDuration(run.seconds * 1000),
      run.exitCode === 0 ? '0 (reproduced, fixed on v1)' : `${run.exitCode} (NOT as expected)`,
      run.seconds < 10 ? 'under 10 s: met' : 'under 10 s: NOT met',
    ]),
    notes: ['compiled: dist/, what the npm package runs (the stable keys); source: bin/longrun.js in a clone (TypeScript through tsx)'],
  };
}

export function startupTable(samples: readonly StartupSample[]): Table {
  return {
    title: 'Start-up: a fresh node until the help is printed',
    headers: ['command', 'from', 'median ms', 'min ms', 'max ms'],
    rows: samples.map((s) => [s.command, s.mode, formatNumber(s.medianMs, 0), formatNumber(s.minMs, 0), formatNumber(s.maxMs, 0)]),
    notes: [
      'node: a bare node, the floor; source: bin/longrun.js in a clone (TypeScript through tsx); compiled: dist/, what the npm package runs',
    ],
  };
}
