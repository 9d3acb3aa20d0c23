/**
 * planRun: one synthetic run, decided up front from (seed, runId, shape): its prompts, the
 * number of turns and, for every turn, what the agent model answers. Tool calls carry their
 * own seed and size, so the sandbox can produce their outputs anywhere, statelessly. The
 * sizes are chosen so that the run's final context (all messages, JSON-serialized) weighs
 * the drawn number of tokens times BYTES_PER_TOKEN; then `scale` shrinks every generated size.
 */
import { BYTES_PER_TOKEN } from '../../src/contract/limits.ts';
import type { Message, ToolCall, ToolName } from '../../src/contract/messages.ts';
import { runMarker } from '../../src/contract/run-marker.ts';
import type { TextMix } from './multibyte.ts';
import { finalAnswer, systemPrompt, turnText, userRequest } from './prose.ts';
import { curveAt } from './quantile-curve.ts';
import { hash32, Rng } from './random.ts';
import { type RunShape, type RunShapeInput, resolveShape, TEXT_TOOLS, type TextToolName, type TurnsProfile } from './run-shape.ts';
import { createStory, type RunStory, sourcePath, storyIdentifiers } from './run-story.ts';
import { MIN_SCREENSHOT_BYTES } from './screenshot.ts';
import type { TextFormat } from './text-output.ts';
import { escapeRatio, FORMATS_BY_TOOL, type ToolArgs, textFormat, textMix, textMixArgs, toolContentWireBytes } from './tool-output.ts';
import { vocabulary } from './vocabulary.ts';

export type AssistantMessage = Extract<Message, { role: 'assistant' }>;

export interface PlannedCall {
  id: string;
  tool: ToolName;
  args: ToolArgs;
}

export interface PlannedTurn {
  /** 1-based: the answer to the run's `turn`-th agent model call. */
  turn: number;
  message: AssistantMessage;
  /** The message's tool calls with their arguments parsed; empty on the last turn. */
  calls: PlannedCall[];
}

export interface RunPlan {
  runId: string;
  /** The scenario seed the plan was made from. */
  seed: number;
  /** The run's size in tokens before scale, drawn from the shape (or overridden). */
  targetTokens: number;
  /**
   * targetTokens * BYTES_PER_TOKEN * scale. At scale 1 the final context weighs this; a scaled
   * run keeps its turns and messages, whose ~500 bytes per turn do not scale, so it weighs more.
   */
  targetBytes: number;
  /** The final context's bytes as planned (text outputs' JSON escaping estimated, within ~0.5%). */
  plannedBytes: number;
  systemPrompt: string;
  userRequest: string;
  /** Identifiers the user request names (ticket, commit, ids, paths). */
  identifiers: string[];
  turns: PlannedTurn[];
  /** What the run is about: more text in its words (an answer that carries a tool's bytes) draws on it. */
  story: RunStory;
  /** The run's language mix (`shape.text`). */
  textMix: TextMix;
}

export interface PlanRunInput {
  seed: number;
  runId: string;
  shape?: RunShapeInput;
  /**
   * The run's position in its scenario (0-based). With it, sizes are stratified: each block of
   * RUN_STRATA consecutive indexes draws exactly once from every 1/RUN_STRATA slice of the size
   * distribution, so a thousand runs always reach its top. Without it the size comes from a
   * hash of the run id.
   */
  index?: number;
}

export const RUN_STRATA = 1000;
/** Smallest text output: a line of a log, enough to look like output. */
const MIN_TEXT_BYTES = 32;
const UINT32 = 4294967296;

export function planRun(input: PlanRunInput): RunPlan {
  const { seed, runId, index } = input;
  if (!Number.isInteger(seed) || seed < 0 || seed >= UINT32) throw new Error(`seed: must be an integer in [0, 2^32), got ${seed}`);
  if (typeof runId !== 'string' || runId.length === 0) throw new Error('runId: must be a non-empty string');
  if (index !== undefined && (!Number.isInteger(index) || index < 0))
    throw new Error(`index: must be a non-negative integer, got ${index}`);
  const shape = resolveShape(input.shape);
  const overrides = shape.overrides;
  const rng = new Rng(hash32(seed, runId));

  const profile = shape.turnsProfile;
  const targetTokens = Math.round(
    overrides.targetTokens ?? (profile ? profileBytes(profile) / BYTES_PER_TOKEN : curveAt(shape.tokens, sizeQuantile(seed, runId, index))),
  );
  // Everything is sized for the full-scale run first, then every generated size is scaled, so
  // that a scaled run keeps the same turns, calls and relative sizes.
  const fullBytes = Math.round(targetTokens * BYTES_PER_TOKEN);
  const turnCount = profile ? profile.length + 1 : (overrides.turns ?? drawTurns(shape, fullBytes, rng));

  const story = createStory(new Rng(rng.fork('story')));
  const promptSeed = rng.fork('prompt');
  // A profile's prompt is the recorded one's size (shape.systemPromptBytes), whatever the run weighs.
  const promptBytes = Math.min(
    curveAt(shape.systemPromptBytes, new Rng(promptSeed).float()),
    profile ? Number.POSITIVE_INFINITY : 0.4 * fullBytes,
  );
  const prompt = (scale: number) =>
    systemPrompt(story, Math.max(80, Math.round(promptBytes * scale)), new Rng(hash32(promptSeed, 'text')), shape.text);
  const plan: RunPlan = {
    runId,
    seed,
    targetTokens,
    targetBytes: Math.round(fullBytes * shape.scale),
    plannedBytes: 0,
    systemPrompt: prompt(1),
    // The marker ties a foreign agent's requests, which carry no longrun metadata, to this plan.
    userRequest: `${userRequest(story, new Rng(rng.fork('request')), shape.text)} ${runMarker(runId)}`,
    identifiers: storyIdentifiers(story),
    turns: [],
    story,
    textMix: shape.text,
  };

  const calls = profile
    ? profileCalls(shape, profile, story, new Rng(rng.fork('calls')))
    : draftCalls(shape, turnCount, fullBytes, story, new Rng(rng.fork('calls')));
  // Texts are seeded per turn, so that rebuilding the turns after re-sizing keeps them.
  const textSeed = rng.fork('text');
  const build = (scale: number) => {
    const narration = (bytes: number | undefined) => (bytes === undefined ? undefined : Math.max(1, Math.round(bytes * scale)));
    plan.turns = calls.map((turnCalls, i) =>
      toolTurn(
        i + 1,
        turnCalls,
        story,
        scale,
        new Rng(hash32(textSeed, i + 1)),
        shape.text,
        narration(profile ? profile[i]?.text : overrides.narrationBytes),
      ),
    );
    const answer = finalAnswer(story, scale, new Rng(hash32(textSeed, 'final')), shape.text);
    plan.turns.push({ turn: turnCount, message: { role: 'assistant', content: answer }, calls: [] });
  };
  const sizeRng = new Rng(rng.fork('sizes'));
  if (profile) {
    // Sized by the profile, call by call.
  } else if (overrides.bytesPerTurn !== undefined) {
    const perTurn = Math.max(1, Math.round(overrides.bytesPerTurn));
    for (const turnCalls of calls) splitBytes(turnCalls.filter(isText), perTurn, shape.toolOutputs.sigma, sizeRng, 1);
  } else {
    // Text outputs fill what the prompts, messages and screenshots leave of the target.
    const texts = calls.flat().filter(isText);
    build(1);
    const fixed = planContextBytes(plan);
    splitBytes(texts, Math.max(0, fullBytes - fixed), shape.toolOutputs.sigma, sizeRng, MIN_TEXT_BYTES, true);
    // The sizes' own digits in the arguments add a few bytes: the largest output absorbs them.
    const largest = texts.reduce<DraftCall | undefined>((a, b) => (a && a.bytes >= b.bytes ? a : b), undefined);
    if (largest) {
      const grown = texts.reduce((sum, call) => sum + textGrowth(call), 0);
      const missing = fullBytes - fixed - grown;
      largest.bytes = Math.max(MIN_TEXT_BYTES, largest.bytes + Math.round(missing / wirePerByte(largest)));
    }
  }
  if (shape.scale !== 1) {
    plan.systemPrompt = prompt(shape.scale);
    for (const call of calls.flat()) {
      call.bytes = scaledSize(call, shape.scale);
      if (call.details.pageText !== undefined) call.details.pageText = Math.max(1, Math.round(call.details.pageText * shape.scale));
    }
  }
  build(shape.scale);
  plan.plannedBytes = planContextBytes(plan);
  return plan;
}

function scaledSize(call: DraftCall, scale: number): number {
  const minimum = call.tool === 'screenshot' ? MIN_SCREENSHOT_BYTES : 1;
  return Math.max(minimum, Math.round(call.bytes * scale));
}

function sizeQuantile(seed: number, runId: string, index: number | undefined): number {
  if (index === undefined) return (hash32(seed, runId, 'size') + 0.5) / UINT32;
  const stratum = strata(seed, Math.floor(index / RUN_STRATA))[index % RUN_STRATA] as number;
  return (stratum + (hash32(seed, index, 'size') + 0.5) / UINT32) / RUN_STRATA;
}

const strataCache = new Map<string, Uint16Array>();

/** A seeded permutation of the strata for one block of indexes. */
function strata(seed: number, block: number): Uint16Array {
  const key = `${seed}:${block}`;
  let order = strataCache.get(key);
  if (!order) {
    order = Uint16Array.from({ length: RUN_STRATA }, (_, i) => i);
    const rng = new Rng(hash32(seed, 'strata', block));
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    if (strataCache.size >= 16) strataCache.delete(strataCache.keys().next().value as string);
    strataCache.set(key, order);
  }
  return order;
}

function drawTurns(shape: RunShape, unscaledBytes: number, rng: Rng): number {
  const perTurn = shape.overrides.bytesPerTurn ?? shape.turns.bytesPerTurn;
  const drawn = Math.round((unscaledBytes / perTurn) * Math.exp(shape.turns.sigma * rng.normal()));
  return Math.min(shape.turns.max, Math.max(shape.turns.min, drawn));
}

/** A profile's bytes at full scale: its outputs (a screenshot's as base64) and texts. */
function profileBytes(profile: TurnsProfile): number {
  let total = 0;
  for (const turn of profile) {
    total += turn.text ?? 0;
    for (const call of turn.calls) total += (call.tool === 'screenshot' ? (4 * call.bytes) / 3 : call.bytes) + (call.pageText ?? 0);
  }
  return Math.max(1, total);
}

/** The tool calls of a profile's turns, each with its tool and size, drafted as any other call (seeded subjects, the run's text mix). */
function profileCalls(shape: RunShape, profile: TurnsProfile, story: RunStory, rng: Rng): DraftCall[][] {
  return profile.map((turn) =>
    turn.calls.map(({ tool, bytes, pageText, escaped }) => {
      const call = draft(tool, tool === 'screenshot' ? Math.max(MIN_SCREENSHOT_BYTES, bytes) : bytes, story, rng);
      if (tool !== 'screenshot' || pageText !== undefined) Object.assign(call.details, textMixArgs(shape.text));
      if (pageText !== undefined) call.details.pageText = pageText;
      // The escaped size, as the request carries it, through the escaping of the format drawn.
      if (escaped !== undefined && isText(call)) call.bytes = Math.max(1, Math.round((escaped - 2) / wirePerByte(call)));
      return call;
    }),
  );
}

interface DraftCall {
  id: string;
  tool: ToolName;
  seed: number;
  bytes: number;
  details: Pick<ToolArgs, 'format' | 'path' | 'command' | 'base' | 'url' | 'pageText' | 'multibyte' | 'loneSurrogates'>;
  args(): ToolArgs;
}

function isText(call: DraftCall): boolean {
  return call.tool !== 'screenshot';
}

/** The tool calls of every tool turn (all turns but the last), sized but for text outputs. */
function draftCalls(shape: RunShape, turnCount: number, targetBytes: number, story: RunStory, rng: Rng): DraftCall[][] {
  const { overrides, screenshots } = shape;
  const textWeights = TEXT_TOOLS.map((t) => shape.toolOutputs.tools[t]);
  const textCall = () => {
    const call = draft(TEXT_TOOLS[rng.weighted(textWeights)] as TextToolName, 0, story, rng);
    Object.assign(call.details, textMixArgs(shape.text));
    return call;
  };
  const screenshotBytes = () =>
    Math.max(MIN_SCREENSHOT_BYTES, Math.round(overrides.screenshotBytes ?? curveAt(screenshots.bytes, rng.float())));
  const screenshotCall = (bytes: number) => {
    const call = draft('screenshot', bytes, story, rng);
    if (overrides.screenshotPageTextBytes !== undefined) {
      Object.assign(call.details, { pageText: overrides.screenshotPageTextBytes }, textMixArgs(shape.text));
    }
    return call;
  };
  const capped = overrides.screenshotEvery === undefined && overrides.screenshotBytes === undefined;
  let screenshotBudget = screenshots.maxShareOfRun * targetBytes;

  const turns: DraftCall[][] = [];
  for (let turn = 1; turn < turnCount; turn++) {
    const count = overrides.callsPerTurn ?? 1 + rng.weighted(shape.callsPerTurn);
    const calls: DraftCall[] = [];
    for (let i = 0; i < count; i++) {
      const wanted =
        overrides.screenshotEvery !== undefined ? i === 0 && turn % overrides.screenshotEvery === 0 : rng.chance(screenshots.share);
      if (!wanted) {
        calls.push(textCall());
        continue;
      }
      let bytes = screenshotBytes();
      if (capped) {
        const call = screenshotCall(bytes);
        const wire = toolContentWireBytes('screenshot', call.args());
        if (wire > screenshotBudget) {
          // Shrink it to what is left, or make it a text call when too little is left.
          const fit = Math.floor(((screenshotBudget - (wire - (4 * bytes) / 3)) * 3) / 4);
          if (fit < Math.max(MIN_SCREENSHOT_BYTES, bytes / 2)) {
            screenshotBudget = 0;
            calls.push(textCall());
            continue;
          }
          bytes = fit;
        }
        call.bytes = bytes;
        screenshotBudget -= toolContentWireBytes('screenshot', call.args());
        calls.push(call);
        continue;
      }
      calls.push(screenshotCall(bytes));
    }
    turns.push(calls);
  }
  return turns;
}

const COMMANDS: Record<'log' | 'test-report' | 'stack-trace' | 'json', ((s: RunStory, noun: string) => string)[]> = {
  log: [
    (s) => `kubectl logs deploy/${s.service} --since=1h`,
    (s) => `docker compose logs ${s.service} --tail=2000`,
    (s) => `grep -rn "${s.requestId}" /var/log/${s.service}/`,
  ],
  'test-report': [(s) => `pytest -q tests/ -k ${s.ticket.toLowerCase().replace('-', '_')}`, (s) => `npm test -- ${s.testFile}`],
  'stack-trace': [(s) => `node scripts/replay.js ${s.requestId}`, (_, noun) => `npm run start:${noun} 2>&1 | tail -n 400`],
  json: [(s) => `curl -s ${s.url}/api/v1/orders/${s.orderId} | jq .`, (s, noun) => `curl -s ${s.url}/api/v1/${noun}s?limit=500 | jq .`],
};

function draft(tool: ToolName, bytes: number, story: RunStory, rng: Rng): DraftCall {
  const noun = rng.pick(vocabulary().nouns);
  const file = () => (rng.chance(0.7) ? rng.pick(story.files) : sourcePath(rng));
  let details: DraftCall['details'];
  switch (tool) {
    case 'screenshot':
      details = { url: rng.chance(0.5) ? story.url : `${story.url}/${noun}` };
      break;
    case 'shell': {
      const format = rng.pick(FORMATS_BY_TOOL.shell) as keyof typeof COMMANDS;
      details = { command: rng.pick(COMMANDS[format])(story, noun), format };
      break;
    }
    case 'read_file': {
      const format = (['code', 'code', 'code', 'code', 'json', 'yaml'] as const)[rng.int(0, 5)] as TextFormat;
      const path = format === 'code' ? file() : format === 'json' ? `config/${noun}.json` : `deploy/${noun}.yaml`;
      details = { path, format };
      break;
    }
    case 'list_files':
      details = { path: file().replace(/\/[^/]*$/, '') };
      break;
    default:
      details = {
        path: file(),
        base: rng.chance(0.6) ? story.commit : rng.hex(40),
      };
  }
  const call: DraftCall = {
    id: `call_${rng.alnum(24)}`,
    tool,
    seed: rng.next(),
    bytes,
    details,
    args: () => ({ seed: call.seed, bytes: call.bytes, ...call.details }),
  };
  return call;
}

/**
 * Shares `total` bytes among the calls with log-normal weights; with `wire`, `total` counts
 * serialized bytes and each share is converted to raw bytes through its format's escaping.
 */
function splitBytes(calls: DraftCall[], total: number, sigma: number, rng: Rng, minimum: number, wire = false): void {
  const weights = calls.map(() => Math.exp(sigma * rng.normal()));
  const sum = weights.reduce((a, b) => a + b, 0);
  let left = total;
  calls.forEach((call, i) => {
    const share = i === calls.length - 1 ? left : Math.floor((total * (weights[i] as number)) / sum);
    left -= share;
    call.bytes = Math.max(minimum, Math.round(share / (wire ? wirePerByte(call) : 1)));
  });
}

/** What a text output sized from 0 to `call.bytes` adds to the context: its content and its size's digits. */
function textGrowth(call: DraftCall): number {
  const content = toolContentWireBytes(call.tool, call.args()) - 2;
  return content + String(call.bytes).length - 1;
}

/** Serialized bytes per byte of a text output (JSON escaping). */
function wirePerByte(call: DraftCall): number {
  return 1 + escapeRatio(textFormat(call.tool as TextToolName, call.details.format), textMix(call.details));
}

function toolTurn(
  turn: number,
  calls: DraftCall[],
  story: RunStory,
  scale: number,
  rng: Rng,
  mix: TextMix,
  narrationBytes: number | undefined,
): PlannedTurn {
  const planned = calls.map((c) => ({
    id: c.id,
    tool: c.tool,
    args: c.args(),
  }));
  const subjects = planned.map((c) => ({
    tool: c.tool,
    subject: c.args.command ?? c.args.path ?? c.args.url ?? '',
  }));
  const toolCalls: ToolCall[] = planned.map((c) => ({
    id: c.id,
    type: 'function',
    function: { name: c.tool, arguments: JSON.stringify(c.args) },
  }));
  const text = turnText(story, subjects, scale, rng, mix, narrationBytes);
  return {
    turn,
    message: { role: 'assistant', content: text, tool_calls: toolCalls },
    calls: planned,
  };
}

/**
 * The JSON bytes of the run's final context (every message of an uncompacted run), computed
 * without generating tool outputs: see toolContentWireBytes.
 */
export function planContextBytes(plan: RunPlan): number {
  let total = 2; // [ ]
  let count = 0;
  const add = (bytes: number) => {
    total += bytes + (count > 0 ? 1 : 0);
    count++;
  };
  add(jsonBytes({ role: 'system', content: plan.systemPrompt }));
  add(jsonBytes({ role: 'user', content: plan.userRequest }));
  for (const turn of plan.turns) {
    add(jsonBytes(turn.message));
    for (const call of turn.calls) {
      add(jsonBytes({ role: 'tool', tool_call_id: call.id, content: '' }) - 2 + toolContentWireBytes(call.tool, call.args));
    }
  }
  return total;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
