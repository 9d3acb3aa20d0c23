/**
 * The shape of synthetic runs: how big they are, how many turns, how many screenshots, how
 * large tool outputs are, plus a scale factor and explicit overrides for incident scenarios.
 */
import { z } from 'zod';
import { TOOL_NAMES, type ToolName } from '../../src/contract/messages.ts';
import { curveProblem } from './quantile-curve.ts';

export type TextToolName = Exclude<ToolName, 'screenshot'>;
export const TEXT_TOOLS = ['shell', 'read_file', 'list_files', 'diff'] as const satisfies readonly TextToolName[];

/**
 * Tokens per run measured over 1067 production runs: p50 56k, p90 151k, max 730k. The lower
 * knots and p99 follow the log-normal these three imply; p99.9 is pinned close to the max so
 * that every 1000 stratified runs reach it (see planRun's `index`).
 */
export const PRODUCTION_TOKENS: RunShape['tokens'] = [
  [0, 4_000],
  [0.01, 9_000],
  [0.1, 21_000],
  [0.5, 56_000],
  [0.9, 151_000],
  [0.99, 340_000],
  [0.999, 680_000],
  [1, 730_000],
];

const positive = z.number().positive();
const positiveInt = z.number().int().positive();
const nonNegative = z.number().min(0);
const share = z.number().min(0).max(1);
const curve = z
  .array(z.tuple([share, positive]))
  .superRefine((knots, ctx) => {
    const problem = curveProblem(knots);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('quantile knots [q, value] from q = 0 to q = 1, interpolated log-linearly');
const hasPositiveWeight = (weights: Record<string, number> | readonly number[]) => Object.values(weights).some((x) => x > 0);

// The sections a partial shape gives field by field; refinements that compare fields come after the merge (runShapeSchema).
const turns = z.strictObject({
  bytesPerTurn: positive.describe('about one turn per this many bytes of (unscaled) context'),
  min: positiveInt.describe('fewest turns of a run'),
  max: positiveInt.describe('most turns of a run'),
  sigma: nonNegative.describe('log-normal jitter of the turn count'),
});
const callsPerTurn = z.array(nonNegative).min(1).refine(hasPositiveWeight, 'needs a positive weight');
const screenshots = z.strictObject({
  share: share.describe('share of tool calls that are screenshots'),
  bytes: curve.describe("each screenshot's encoded PNG size, as quantile knots [q, bytes]"),
  maxShareOfRun: share.describe("screenshots take at most this share of the run's bytes unless overridden"),
});
const toolSigma = nonNegative.describe('log-normal spread of text output sizes');
const tools = z.strictObject({ shell: nonNegative, read_file: nonNegative, list_files: nonNegative, diff: nonNegative });
const text = z.strictObject({
  multibyteShare: share.describe('share of lines and sentences (prompts, answers, tool-output lines) that carry non-ASCII text'),
  loneSurrogateShare: share.describe('share of log and listing lines that carry a lone surrogate'),
});
const overrides = z.strictObject({
  targetTokens: positive.optional().describe('run size instead of drawing it from `tokens`'),
  turns: positiveInt.optional().describe('model calls in the run; the last one answers without tool calls'),
  bytesPerTurn: positive.optional().describe("text output bytes of every tool turn, instead of filling the run's target"),
  screenshotEvery: positiveInt.optional().describe('the first call of every Nth turn is a screenshot, and no other call is'),
  screenshotBytes: positive.optional().describe("every screenshot's encoded PNG size"),
  screenshotPageTextBytes: positiveInt
    .optional()
    .describe("UTF-8 bytes of the page's visible text every screenshot carries beside its image, as a browser tool reads it"),
  narrationBytes: positiveInt
    .optional()
    .describe("UTF-8 bytes of every tool turn's assistant text (what it says before its calls), instead of a sentence or a few"),
  callsPerTurn: positiveInt
    .optional()
    .describe('tool calls in every tool turn, instead of drawing them from `callsPerTurn` (history-count: many small ones)'),
});

const profiledCall = z
  .strictObject({
    tool: z.enum(TOOL_NAMES),
    bytes: positiveInt.describe("the output's UTF-8 bytes (text tools) or the screenshot's encoded PNG size"),
    pageText: positiveInt.optional().describe("a screenshot's page text beside its image, in UTF-8 bytes"),
    escaped: positiveInt
      .optional()
      .describe(
        "a text output's bytes as a request carries it, JSON-escaped and quoted: the output is sized so that its escaped form weighs about this, whatever format it draws (instead of `bytes`)",
      ),
  })
  .describe('one tool call of a turn and the size of its output');
const turnsProfile = z
  .array(
    z.strictObject({
      text: z.number().int().min(0).optional().describe("UTF-8 bytes of the turn's assistant text; left out, a sentence or a few"),
      calls: z.array(profiledCall).min(1).describe("the turn's tool calls, in order"),
    }),
  )
  .min(1)
  .describe(
    'every tool turn of the run, in order (`longrun scenario from-history` writes it from a history); the run answers once more, without calls, after the last; sizes are before `scale`, content stays synthetic and seeded',
  );

/** A whole shape, as resolveShape returns it. */
const runShapeSchema = z.strictObject({
  tokens: curve,
  scale: positive,
  turns: turns.refine((t) => t.min <= t.max, { message: 'min must not exceed max' }),
  callsPerTurn,
  systemPromptBytes: curve,
  screenshots,
  toolOutputs: z.strictObject({ sigma: toolSigma, tools: tools.refine(hasPositiveWeight, 'needs a positive weight') }),
  text,
  overrides,
  turnsProfile: turnsProfile.optional(),
});

/**
 * A partial shape (a scenario's `shape`): whatever is left out comes from DEFAULT_SHAPE. A
 * section left empty in YAML (null) is the defaults too. Sizes are UTF-8 bytes.
 */
export const runShapeInputSchema = z
  .strictObject({
    tokens: curve
      .optional()
      .describe(
        'tokens per run (final context JSON bytes / BYTES_PER_TOKEN, before scale); default: production, p50 56k, p90 151k, max 730k',
      ),
    scale: positive
      .optional()
      .describe(
        'multiplies every generated size after the run is planned at full size (turns, calls and message texts stay, ~500 B per turn); default 1',
      ),
    turns: turns
      .partial()
      .nullish()
      .describe('about one turn per `bytesPerTurn` of (unscaled) context, log-normal jitter `sigma`, clamped'),
    callsPerTurn: callsPerTurn.optional().describe('weights of 1, 2, 3... tool calls in one turn'),
    systemPromptBytes: curve.optional().describe("the system prompt's size, capped at 40% of the run"),
    screenshots: screenshots.partial().nullish().describe('`share` of tool calls are screenshots of `bytes`'),
    toolOutputs: z
      .strictObject({ sigma: toolSigma.optional(), tools: tools.partial().nullish().describe('weights of the text tools') })
      .nullish()
      .describe('text outputs fill the rest of the run with log-normal spread `sigma`; tools by weight'),
    text: text
      .partial()
      .nullish()
      .describe('non-ASCII content (mocks/synthetic/multibyte.ts); every size is planned in UTF-8 bytes whatever the script'),
    overrides: overrides
      .nullish()
      .describe('explicit overrides for incident reproductions; each replaces a drawn quantity; sizes are before `scale`'),
    turnsProfile: turnsProfile
      .optional()
      .describe(
        "a recorded run's turns, each with its calls and their output sizes: replaces the drawn turns, calls and sizes (`tokens`, `turns`, `callsPerTurn`, `screenshots`, `toolOutputs` and the size overrides then do not apply)",
      ),
  })
  .describe('The shape of synthetic runs (mocks/synthetic/run-shape.ts); whatever is left out is the default');

export type RunShape = z.infer<typeof runShapeSchema>;
export type RunShapeInput = z.input<typeof runShapeInputSchema>;
export type RunOverrides = RunShape['overrides'];
export type TurnsProfile = NonNullable<RunShape['turnsProfile']>;

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

/** Fills a partial shape from DEFAULT_SHAPE and validates it; throws one line naming the field. */
export function resolveShape(input: RunShapeInput = {}): RunShape {
  if (typeof input !== 'object' || input === null) throw new Error('shape: must be an object');
  const given = runShapeInputSchema.safeParse(input);
  if (!given.success) throw new Error(describeIssue('shape', given.error.issues[0]));
  const partial = given.data;
  const merged = {
    ...DEFAULT_SHAPE,
    ...partial,
    turns: { ...DEFAULT_SHAPE.turns, ...partial.turns },
    screenshots: { ...DEFAULT_SHAPE.screenshots, ...partial.screenshots },
    toolOutputs: {
      ...DEFAULT_SHAPE.toolOutputs,
      ...partial.toolOutputs,
      tools: { ...DEFAULT_SHAPE.toolOutputs.tools, ...partial.toolOutputs?.tools },
    },
    text: { ...DEFAULT_SHAPE.text, ...partial.text },
    overrides: { ...DEFAULT_SHAPE.overrides, ...partial.overrides },
  };
  const parsed = runShapeSchema.safeParse(merged);
  if (!parsed.success) throw new Error(describeIssue('shape', parsed.error.issues[0]));
  return parsed.data;
}

/** One line naming the field of a zod issue. */
export function describeIssue(root: string, issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return `${root}: invalid`;
  const path = [root, ...issue.path.map(String)].join('.');
  return `${path}: ${issue.message}`;
}
