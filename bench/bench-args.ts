/** The benchmark's command line, parsed into options; bad input is one line naming the flag. */
import { parseArgs } from 'node:util';

export const SECTIONS = ['ceiling', 'overhead', 'judging', 'steady', 'throughput', 'scale', 'repro', 'startup'] as const;
export type Section = (typeof SECTIONS)[number] | 'month';

export interface BenchOptions {
  sections: Section[];
  /** Overhead: its pairs of sides; judging: half its repetitions. */
  repetitions: number;
  /** Throughput: each configuration stops launching and stops its runs after this long (0: runs complete). */
  windowSeconds: number;
  /** The production month: how many runs, how many at once. */
  monthRuns: number;
  monthConcurrency: number;
  /** Month: the shape's context bytes per turn. */
  monthBytesPerTurn: number;
  /** Month: pairs of longrun and peer months (bench/month-peer.ts); 0, longrun's month alone. */
  monthPeerPairs: number;
  outDir: string;
}

export const PRODUCTION_MONTH_RUNS = 1067;
/**
 * The month's turn density: with 12,000 context bytes per turn the plans of the 1,067 runs send
 * 1.753 B input tokens append-only, production's measured 1.76 B; the mocks' default of 6,000
 * makes runs twice as turn-dense (3.88 B).
 */
export const PRODUCTION_BYTES_PER_TURN = 12_000;
/**
 * The month's runs at once: at 4 the runs' round trips left 12% of the 2 cores idle (16 min 54 s
 * on a quiet machine); at 6, 8%, and 14 min 19 s and 15 min 05 s (docs/benchmarks.md, "The production month").
 */
export const MONTH_CONCURRENCY = 6;

export const BENCH_USAGE = `Usage: npm run bench -- [options]

  (default)            ceiling, overhead, judging, steady, throughput, scale, repro and startup (longrun --help):
                       about half an hour
  --only LIST          sections to run, comma-separated: ${SECTIONS.join(', ')}
  --repetitions N      overhead: pairs of sides; judging: twice N repetitions; startup: starts per command (default 5)
  --window SECONDS     throughput: stop each configuration after this long (default 60; 0 = run to the end)
  --month              the production month instead: ${PRODUCTION_MONTH_RUNS} runs at full size (13-15 minutes
                       on 2 cores of a quiet machine; the target is under 10)
  --runs N             month: runs (default ${PRODUCTION_MONTH_RUNS})
  --concurrency N      month: runs at once (default ${MONTH_CONCURRENCY})
  --bytes-per-turn N   month: context bytes per turn of the synthetic runs (default 12,000: the plans'
                       append-only total matches production's 1.76 B tokens; the mocks' own default,
                       6,000, makes twice the turns and takes about an hour)
  --peer               month: the peer's month beside longrun's (the bare kernel, then the SDK's replay of each
                       run: the floor), in turn, --repetitions pairs (default 1)
  --out DIR            where the JSON report goes (default reports/bench)`;

export class BenchUsageError extends Error {
  override name = 'BenchUsageError';
}

export function parseBenchArgs(argv: readonly string[]): BenchOptions | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        only: { type: 'string' },
        repetitions: { type: 'string' },
        window: { type: 'string' },
        month: { type: 'boolean' },
        runs: { type: 'string' },
        concurrency: { type: 'string' },
        'bytes-per-turn': { type: 'string' },
        peer: { type: 'boolean' },
        out: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new BenchUsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  if (values.help) return 'help';
  if (values.month && values.only !== undefined) throw new BenchUsageError('--only: the month runs on its own; drop --only or --month');
  for (const flag of ['runs', 'concurrency', 'bytes-per-turn', 'peer'] as const) {
    if (!values.month && values[flag] !== undefined) throw new BenchUsageError(`--${flag}: only with --month`);
  }
  return {
    sections: values.month ? ['month'] : sectionList(values.only as string | undefined),
    repetitions: integer(values.repetitions, 'repetitions', 5, 1),
    windowSeconds: integer(values.window, 'window', 60, 0),
    monthRuns: integer(values.runs, 'runs', PRODUCTION_MONTH_RUNS, 1),
    monthConcurrency: integer(values.concurrency, 'concurrency', MONTH_CONCURRENCY, 1),
    monthBytesPerTurn: integer(values['bytes-per-turn'], 'bytes-per-turn', PRODUCTION_BYTES_PER_TURN, 1),
    monthPeerPairs: values.peer ? integer(values.repetitions, 'repetitions', 1, 1) : 0,
    outDir: (values.out as string | undefined) ?? 'reports/bench',
  };
}

function sectionList(only: string | undefined): Section[] {
  if (only === undefined) return [...SECTIONS];
  const names = only.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(SECTIONS as readonly string[]).includes(name)) {
      throw new BenchUsageError(`--only: unknown section "${name}" (sections: ${SECTIONS.join(', ')})`);
    }
  }
  return [...new Set(names)] as Section[];
}

function integer(value: string | boolean | undefined, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || number < min) {
    throw new BenchUsageError(`--${flag}: must be an integer >= ${min}, got "${String(value)}"`);
  }
  return number;
}
