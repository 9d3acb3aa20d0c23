/**
 * The keys of the figures `longrun compare` sets side by side, and how far each may regress
 * before it fails: one table, read by the judging, `--max-regression`, the help and a
 * scenario's `compare.maxRegression` (here, so that the scenario schema can name the keys).
 */
import { z } from 'zod';

export interface CompareFigure {
  /** What it is, for the help and editors. */
  what: string;
  /** The unit of its values, and of an absolute limit. */
  unit: string;
  better: 'higher' | 'lower';
  /** How far it may regress unless told otherwise: a percentage of the baseline, an amount in `unit`, or off (shown, never judged). */
  default: ThresholdText;
}

export type ThresholdText = `${number}%` | number | 'off';

// Rates, latency and peaks move with the machine: a few tenths; violations and invariant fails
// may not grow at all. A slope over minutes swings by ~150 MiB/h either way
// (scenarios/nightly-soak.yaml), and totals grow with the duration: shown, judged when asked.
export const COMPARE_FIGURES = {
  'turns-per-second': { what: 'turns completed per second', unit: 'turns/s', better: 'higher', default: '10%' },
  'runs-per-second': { what: 'runs started per second', unit: 'runs/s', better: 'higher', default: '10%' },
  p50: { what: 'turn latency, median', unit: 'ms', better: 'lower', default: '20%' },
  p95: { what: 'turn latency, 95th percentile', unit: 'ms', better: 'lower', default: '20%' },
  p99: { what: 'turn latency, 99th percentile', unit: 'ms', better: 'lower', default: '20%' },
  'worker-rss-max': { what: "the worker's largest RSS", unit: 'MiB', better: 'lower', default: '20%' },
  'server-rss-max': { what: "the server's largest RSS", unit: 'MiB', better: 'lower', default: '20%' },
  'database-rss-max': { what: "the server's PostgreSQL's largest memory (PSS)", unit: 'MiB', better: 'lower', default: '20%' },
  'worker-rss-growth': { what: "the worker's RSS slope after the warm-up", unit: 'MiB/h', better: 'lower', default: 'off' },
  'server-rss-growth': { what: "the server's RSS slope after the warm-up", unit: 'MiB/h', better: 'lower', default: 'off' },
  'database-rss-growth': { what: "PostgreSQL's memory slope after the warm-up", unit: 'MiB/h', better: 'lower', default: 'off' },
  violations: { what: 'invariant violations, all runs', unit: 'violations', better: 'lower', default: 0 },
  'invariant-fails': { what: 'runs failing an invariant, per invariant', unit: 'runs', better: 'lower', default: 0 },
  'request-bytes-per-turn': { what: 'model request bytes per turn', unit: 'bytes', better: 'lower', default: '10%' },
  'request-bytes': { what: 'model request bytes, all runs', unit: 'bytes', better: 'lower', default: 'off' },
  'tokens-per-turn': {
    what: 'input tokens per turn, agent and compaction model (the token bill)',
    unit: 'tokens',
    better: 'lower',
    default: '10%',
  },
  tokens: { what: 'input tokens billed (bench month: agent and compaction model)', unit: 'tokens', better: 'lower', default: '10%' },
  runs: { what: 'runs judged', unit: 'runs', better: 'higher', default: 'off' },
  turns: { what: 'turns completed', unit: 'turns', better: 'higher', default: 'off' },
  overhead: { what: "bench: longrun's time (or CPU) per turn over the bare baseline's", unit: 'x', better: 'lower', default: '10%' },
  'startup-ms': { what: 'bench: `longrun --help` start-up, median', unit: 'ms', better: 'lower', default: '20%' },
} as const satisfies Record<string, CompareFigure>;

export type CompareKey = keyof typeof COMPARE_FIGURES;
export const COMPARE_KEYS = Object.keys(COMPARE_FIGURES) as CompareKey[];

const PERCENT = /^(\d+(?:\.\d+)?)%$/;

export type Threshold = { percent: number } | { amount: number } | 'off';

/** A limit as written (`10%`, `50`, `off`), or undefined when it is none of those. */
export function parseThreshold(raw: string | number): Threshold | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) && raw >= 0 ? { amount: raw } : undefined;
  if (raw === 'off') return 'off';
  const percent = PERCENT.exec(raw);
  if (percent) return { percent: Number(percent[1]) };
  return /^\d+(\.\d+)?$/.test(raw) ? { amount: Number(raw) } : undefined;
}

/** A limit as a scenario writes it: the forms of `--max-regression` (`20%`, `250`, `off`). */
const thresholdSchema = z
  .union([
    z.number().nonnegative(),
    z.string().regex(/^(\d+(\.\d+)?%|off)$/, "a percentage of the baseline (10%), an amount in the figure's unit, or off"),
  ])
  .describe("a percentage of the baseline (10%), an amount in the figure's unit, or off");

export const compareSchema = z
  .strictObject({
    maxRegression: z
      .strictObject(
        Object.fromEntries(
          COMPARE_KEYS.map((key) => {
            const { what, unit, default: limit } = COMPARE_FIGURES[key];
            return [key, thresholdSchema.optional().describe(`${what} (${unit}; default ${limit})`)];
          }),
        ) as Record<CompareKey, z.ZodOptional<typeof thresholdSchema>>,
      )
      .default({})
      .describe(
        'how far each figure may get worse than the baseline before `longrun compare` exits 3, key by key over the defaults; --max-regression overrides it',
      ),
  })
  .describe("`longrun compare`'s limits for reports of this scenario (default: each figure's own, `longrun compare --help`)");

export type CompareSettings = z.infer<typeof compareSchema>;
