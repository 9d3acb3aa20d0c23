/**
 * The shape of synthetic runs: how big they are, how many turns, how many screenshots, how
 * large tool outputs are, plus a scale factor and explicit overrides for incident scenarios.
 */
import { z } from 'zod';
import type { ToolName } from '../../src/contract/messages.ts';
import type { TextMix } from './multibyte.ts';
import { curveProblem, type QuantileCurve } from './quantile-curve.ts';

export type TextToolName = Exclude<ToolName, 'screenshot'>;
export const TEXT_TOOLS = ['shell', 'read_file', 'list_files', 'diff'] as const satisfies readonly TextToolName[];

/**
 * Tokens per run measured over 1067 production runs: p50 56k, p90 151k, max 730k. The lower
 * knots and p99 follow the log-normal these three imply; p99.9 is pinned close to the max so
 * that every 1000 stratified runs reach it (see planRun's `index`).
 */
export const PRODUCTION_TOKENS: QuantileCurve = [
  [0, 4_000],
  [0.01, 9_000],
  [0.1, 21_000],
  [0.5, 56_000],
  [0.9, 151_000],
  [0.99, 340_000],
  [0.999, 680_000],
  [1, 730_000],
];

/** Explicit overrides for incident reproductions; each replaces a drawn quantity. Sizes are before `scale`. */
export interface RunOverrides {
  /** Run size instead of drawing it from `tokens`. */
  targetTokens?: number;
  /** Model calls in the run; the last one answers without tool calls. */
  turns?: number;
  /** Text output bytes of every tool turn, instead of filling the run's target. */
  bytesPerTurn?: number;
  /** The first call of every Nth turn is a screenshot, and no other call is. */
  screenshotEvery?: number;
  /** Every screenshot's encoded PNG size. */
  screenshotBytes?: number;
  /** Tool calls in every tool turn, instead of drawing them from `callsPerTurn` (history-count: many small ones). */
  callsPerTurn?: number;
}

export interface RunShape {
  /** Tokens per run: the bytes of the final context / BYTES_PER_TOKEN, before `scale`. */
  tokens: QuantileCurve;
  /**
   * Multiplies every generated size (system prompt, each tool output, each screenshot) after
   * the run is planned at full size: turns, calls and relative sizes are kept. Message texts
   * and JSON framing (~500 bytes per turn) do not shrink, so a run at 0.01 weighs more than
   * 1% of its full size.
   */
  scale: number;
  /** About one turn per `bytesPerTurn` of (unscaled) context, log-normal jitter `sigma`, clamped. */
  turns: { bytesPerTurn: number; min: number; max: number; sigma: number };
  /** Weights of 1, 2, 3... tool calls in one turn. */
  callsPerTurn: readonly number[];
  /** The system prompt's size, capped at 40% of the run. */
  systemPromptBytes: QuantileCurve;
  /**
   * `share` of tool calls are screenshots of `bytes` (encoded PNG); they take at most
   * `maxShareOfRun` of the run's bytes unless overridden.
   */
  screenshots: { share: number; bytes: QuantileCurve; maxShareOfRun: number };
  /** Text outputs fill the rest of the run with log-normal spread `sigma`; tools by weight. */
  toolOutputs: { sigma: number; tools: Record<TextToolName, number> };
  /**
   * Non-ASCII content (mocks/synthetic/multibyte.ts): `multibyteShare` of the lines and
   * sentences of prompts, answers and tool outputs carry Cyrillic, CJK, emoji or combining
   * marks; `loneSurrogateShare` of log and listing lines carry a lone surrogate. Every size
   * is planned in UTF-8 bytes whatever the script.
   */
  text: TextMix;
  overrides: RunOverrides;
}

export const DEFAULT_SHAPE: RunShape = {
  tokens: PRODUCTION_TOKENS,
  scale: 1,
  turns: { bytesPerTurn: 6_000, min: 2, max: 300, sigma: 0.25 },
  callsPerTurn: [0.8, 0.15, 0.05],
  systemPromptBytes: [
    [0, 3_000],
    [0.5, 6_000],
    [1, 10_000],
  ],
  screenshots: {
    share: 0.05,
    bytes: [
      [0, 20_000],
      [0.5, 80_000],
      [0.9, 250_000],
      [1, 1_500_000],
    ],
    maxShareOfRun: 0.6,
  },
  toolOutputs: {
    sigma: 1,
    tools: { shell: 0.45, read_file: 0.3, list_files: 0.1, diff: 0.15 },
  },
  text: { multibyteShare: 0.4, loneSurrogateShare: 0.003 },
  overrides: {},
};

/** A partial shape: whatever is left out comes from DEFAULT_SHAPE. */
export interface RunShapeInput {
  tokens?: QuantileCurve;
  scale?: number;
  turns?: Partial<RunShape['turns']>;
  callsPerTurn?: readonly number[];
  systemPromptBytes?: QuantileCurve;
  screenshots?: Partial<RunShape['screenshots']>;
  toolOutputs?: { sigma?: number; tools?: Partial<Record<TextToolName, number>> };
  text?: Partial<TextMix>;
  overrides?: RunOverrides;
}

const positive = z.number().positive();
const positiveInt = z.number().int().positive();
const share = z.number().min(0).max(1);
const curve = z.array(z.tuple([share, positive])).superRefine((knots, ctx) => {
  const problem = curveProblem(knots);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const shapeSchema = z.strictObject({
  tokens: curve,
  scale: positive,
  turns: z
    .strictObject({
      bytesPerTurn: positive,
      min: positiveInt,
      max: positiveInt,
      sigma: z.number().min(0),
    })
    .refine((t) => t.min <= t.max, { message: 'min must not exceed max' }),
  callsPerTurn: z
    .array(z.number().min(0))
    .min(1)
    .refine((w) => w.some((x) => x > 0), 'needs a positive weight'),
  systemPromptBytes: curve,
  screenshots: z.strictObject({ share, bytes: curve, maxShareOfRun: share }),
  toolOutputs: z.strictObject({
    sigma: z.number().min(0),
    tools: z
      .strictObject({
        shell: z.number().min(0),
        read_file: z.number().min(0),
        list_files: z.number().min(0),
        diff: z.number().min(0),
      })
      .refine((w) => Object.values(w).some((x) => x > 0), 'needs a positive weight'),
  }),
  text: z.strictObject({ multibyteShare: share, loneSurrogateShare: share }),
  overrides: z.strictObject({
    targetTokens: positive.optional(),
    turns: positiveInt.optional(),
    bytesPerTurn: positive.optional(),
    screenshotEvery: positiveInt.optional(),
    screenshotBytes: positive.optional(),
    callsPerTurn: positiveInt.optional(),
  }),
});

/** Fills a partial shape from DEFAULT_SHAPE and validates it; throws one line naming the field. */
export function resolveShape(input: RunShapeInput = {}): RunShape {
  if (typeof input !== 'object' || input === null) throw new Error('shape: must be an object');
  const merged: Record<string, unknown> = { ...DEFAULT_SHAPE, ...input };
  for (const key of ['turns', 'screenshots', 'toolOutputs', 'text', 'overrides'] as const) {
    merged[key] = {
      ...DEFAULT_SHAPE[key],
      ...(input[key] as object | undefined),
    };
  }
  merged.toolOutputs = {
    ...(merged.toolOutputs as object),
    tools: { ...DEFAULT_SHAPE.toolOutputs.tools, ...input.toolOutputs?.tools },
  };
  const parsed = shapeSchema.safeParse(merged);
  if (!parsed.success) throw new Error(describeIssue('shape', parsed.error.issues[0]));
  return parsed.data as RunShape;
}

/** One line naming the field of a zod issue. */
export function describeIssue(root: string, issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return `${root}: invalid`;
  const path = [root, ...issue.path.map(String)].join('.');
  return `${path}: ${issue.message}`;
}
