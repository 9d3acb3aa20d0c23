/**
 * `npm run bench`: overhead, throughput, scale and the incident reproductions on the embedded server (a few minutes), or
 * `-- --month` for the production month. Writes reports/bench/<time>.json and prints tables.
 * A script, not a test: nothing here asserts on wall time.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { workflowBundle } from '../src/kernel/workers/workflow-bundles.ts';
import { atomicWriteFile } from '../src/shared/atomic-write.ts';
import { BENCH_USAGE, type BenchOptions, BenchUsageError, parseBenchArgs } from './bench-args.ts';
import { type BenchReport, reportTables } from './bench-report.ts';
import { measureCeiling, peerShareOfCeiling, shareOfCeiling } from './ceiling/run-ceiling.ts';
import { measureJudging } from './judging.ts';
import { measureMonth } from './month.ts';
import { measureMonthPairs } from './month-peer.ts';
import { measureOverhead } from './overhead.ts';
import { measureRepro } from './repro.ts';
import { measureScale } from './scale.ts';
import { measureStartup } from './startup.ts';
import { measureSteady } from './steady.ts';
import { formatTable } from './table.ts';
import { measureThroughput } from './throughput.ts';

const OVERHEAD_RUNS = { runs: 2, concurrency: 1, targetTokens: 56_000 } as const;
/** Judging: p50 runs, judged again and again after they ran (twice `--repetitions` times: a repetition is a few seconds, its CPU noisy). */
const JUDGING_RUNS = { runs: 4, concurrency: 2, targetTokens: 56_000 } as const;
/** Steady state: p50 runs, 4 at once, a minute counted after 10 s, longrun/peer twice (ABBA). */
const STEADY = { windowSeconds: 60, warmUpSeconds: 10, concurrency: 4, targetTokens: 56_000, pairs: 2 } as const;

async function main(argv: string[]): Promise<number> {
  let options: BenchOptions | 'help';
  try {
    options = parseBenchArgs(argv);
  } catch (error) {
    if (!(error instanceof BenchUsageError)) throw error;
    console.error(`bench: ${error.message}\n\n${BENCH_USAGE}`);
    return 2;
  }
  if (options === 'help') {
    console.log(BENCH_USAGE);
    return 0;
  }
  const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    finishedAt: '',
    machine: { cpus: cpus().length, memoryBytes: totalmem(), node: process.version, loadAtStart: loadavg(), loadAtEnd: [] },
    commit: gitCommit(),
  };
  // Ctrl-C or SIGTERM stops the month's runs and still writes what was measured; a second one quits.
  const interrupt = new AbortController();
  const stop = () => {
    if (interrupt.signal.aborted) process.exit(130);
    log('stopping: the runs in flight are judged, then the report is written (again to quit now)');
    interrupt.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  log(`load ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores; bundling the kernel`);
  await workflowBundle('v1');
  for (const section of options.sections) {
    if (interrupt.signal.aborted) break;
    log(`${section}...`);
    if (section === 'ceiling') report.ceiling = await measureCeiling(log, interrupt.signal);
    if (section === 'overhead') report.overhead = await measureOverhead({ repetitions: options.repetitions, ...OVERHEAD_RUNS });
    if (section === 'judging') report.judging = await measureJudging({ repetitions: 2 * options.repetitions, ...JUDGING_RUNS });
    if (section === 'steady') report.steady = await measureSteady(STEADY, log);
    if (section === 'throughput') report.throughput = await measureThroughput(options.windowSeconds, log);
    if (section === 'scale') report.scale = await measureScale();
    if (section === 'repro') report.repro = await measureRepro(log);
    if (section === 'startup') report.startup = measureStartup(options.repetitions);
    if (section === 'month') {
      const month = {
        runs: options.monthRuns,
        concurrency: options.monthConcurrency,
        bytesPerTurn: options.monthBytesPerTurn,
        signal: interrupt.signal,
      };
      report.month =
        options.monthPeerPairs > 0 ? await measureMonthPairs(month, options.monthPeerPairs, log) : await measureMonth(month, log);
    }
  }
  if (report.ceiling && report.throughput) {
    const longrun = report.throughput.filter((s) => s.side === 'longrun');
    report.ceiling.longrunShare = shareOfCeiling(report.ceiling.samples, longrun);
    const peer = report.throughput.filter((s) => s.side === 'peer');
    report.ceiling.peerShare = peerShareOfCeiling(report.ceiling.samples, peer, longrun);
  }
  report.finishedAt = new Date().toISOString();
  report.machine.loadAtEnd = loadavg();
  const file = await writeReport(options.outDir, report);
  console.log(reportTables(report).map(formatTable).join('\n\n'));
  console.log(`\nreport: ${file}`);
  return 0;
}

async function writeReport(dir: string, report: BenchReport): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${report.startedAt.replaceAll(':', '-').replace(/\.\d+Z$/, 'Z')}.json`);
  await atomicWriteFile(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

process.exitCode = await main(process.argv.slice(2));
