/**
 * Provider-side compaction, as OpenAI's Responses API (`context_management` of type
 * `compaction`, `POST /responses/compact`) and Anthropic's Messages API (the `compact_20260112`
 * edit, the top-level `compaction` param) do it: a request past its threshold is answered with a
 * compaction item (or block) besides the turn's answer, and a later request that carries it is
 * billed for a short summary in place of what it replaced.
 *
 * The item's opaque content is a token the mock signs (HMAC-SHA256, keyed by the plan's seed)
 * naming the run and what it replaced, so that a later request needs no state to know its run
 * and turn, and a forged or foreign item is refused as the providers refuse content they did
 * not issue. Same plan, seed and request: same token, same usage.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { BYTES_PER_TOKEN, CARD_MAX_BYTES } from '../../src/contract/limits.ts';
import type { RunPlan } from '../synthetic/plan-run.ts';
import type { ModelRequest, Reply } from './wire-format.ts';

/**
 * What a compaction item or block costs a later request, whatever it replaced: the budget of
 * longrun's own state card (CARD_MAX_BYTES in tokens), so that provider-side compaction and the
 * card compare on the same plan by their mechanism, not by the size of their summaries.
 */
export const SUMMARY_TOKENS = Math.round(CARD_MAX_BYTES / BYTES_PER_TOKEN);
/** OpenAI's least `compact_threshold`. */
export const OPENAI_MIN_COMPACT_THRESHOLD = 1000;
/** Anthropic's least `trigger.value`, and its trigger when none is given. */
export const ANTHROPIC_MIN_TRIGGER = 50_000;
export const ANTHROPIC_DEFAULT_TRIGGER = 150_000;
/** The beta each Anthropic mechanism needs in `anthropic-beta`. */
export const ANTHROPIC_EDIT_BETA = 'compact-2026-01-12';
export const ANTHROPIC_PARAM_BETA = 'compact-2026-09-04';
/** OpenAI caches a prompt's prefix from 1024 tokens, in steps of 128. */
const OPENAI_CACHE_MIN = 1024;
const OPENAI_CACHE_STEP = 128;

const TOKEN_PREFIX = 'lrc1';

export type CompactionOrigin = 'responses' | 'responses-compact' | 'messages' | 'messages-param';

/** What a compaction token stands for. */
export interface Seal {
  run: string;
  /** The turn whose request it compacted. */
  turn: number;
  /** The model's answers and the user's messages it replaced: a later request's turn counts them. */
  answers: number;
  users: number;
  /** The input tokens it replaced. */
  tokens: number;
  origin: CompactionOrigin;
}

/** A compaction item or block a request carries, read but not yet checked. */
export interface CarriedCompaction {
  /** The field that holds its token, e.g. `body.input.4.encrypted_content`. */
  path: string;
  token: string;
  /** The summary the token is bound to (Anthropic's block content); '' for OpenAI's item. */
  content: string;
}

/** What a request says and sends about compaction, as its format reads it. */
export interface ContextWindow {
  /** `threshold`: compact past `threshold` input tokens; `param`: compact now (Anthropic's `compaction` param). */
  mode: 'none' | 'threshold' | 'param';
  threshold: number | null;
  /** Anthropic's pause_after_compaction: the compaction block alone. */
  pause: boolean;
  /** The anthropic-beta the request needs for what it asks. */
  beta: string | null;
  /** Every compaction the request carries; the last one is the one that counts. */
  carried: CarriedCompaction[];
  /** The seal of the last carried compaction as it reads (checked by checkCarried before any answer). */
  latest: Seal | null;
  /** Input tokens after compaction: what the request costs. */
  inputTokens: number;
  /** Input tokens outside the conversation (instructions, system, tools, the body's other fields). */
  baseTokens: number;
  /** The stable prefix: the input before the latest answer, which the previous request sent too. */
  prefixTokens: number;
  /** Anthropic caches only behind a cache_control marker. */
  cacheControl: boolean;
}

/** A request read with its context window (Responses and Messages). */
export interface WindowedRequest extends ModelRequest {
  window?: ContextWindow;
}

/** What the answer carries of provider-side compaction, and its usage. */
export interface ProviderOutcome {
  /** The compaction the answer carries; `signed`: its token is the block's signature (Anthropic's `compaction` param). */
  compaction: { id: string; token: string; summary: string; signed: boolean } | null;
  /** Only the compaction block is answered (pause_after_compaction, the `compaction` param). */
  only: boolean;
  inputTokens: number;
  /** OpenAI `cached_tokens` / Anthropic `cache_read_input_tokens`. */
  cacheReadTokens: number;
  /** OpenAI `cache_write_tokens` / Anthropic `cache_creation_input_tokens`. */
  cacheWriteTokens: number;
  /** The compaction pass: the input it read, the summary it wrote. */
  pass: { inputTokens: number; cacheReadTokens: number; outputTokens: number } | null;
  /** What the answer reads after a compaction in the same request: the base and the summary. */
  compactedTokens: number;
}

/** A reply with what it carries of provider-side compaction. */
export interface ProviderReply extends Reply {
  provider?: ProviderOutcome;
}

/** The input tokens a request is billed: its input, and past a compaction in it the compacted window the answer read too. */
export function billedInputTokens(outcome: ProviderOutcome): number {
  return outcome.inputTokens + (outcome.pass ? outcome.compactedTokens : 0);
}

export function tokensOfBytes(bytes: number): number {
  return Math.round(bytes / BYTES_PER_TOKEN);
}

/** A part of a body as it weighs in it (the clients send compact JSON). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** The index of the last element that holds, -1 when none (Array.findLastIndex is ES2023). */
export function lastIndex<T>(array: readonly T[], holds: (element: T) => boolean): number {
  for (let i = array.length - 1; i >= 0; i--) if (holds(array[i] as T)) return i;
  return -1;
}

/** Whether an anthropic-beta header (comma-separated) names the beta. */
export function hasBeta(header: string | null, beta: string): boolean {
  return (header ?? '').split(',').some((b) => b.trim() === beta);
}

function key(seed: number): Buffer {
  return createHash('sha256').update(`longrun provider compaction\n${seed}`).digest();
}

function mac(seed: number, payload: string, content: string): string {
  return createHmac('sha256', key(seed)).update(`${payload}\n${content}`).digest('base64url');
}

/** The token of a compaction: its seal in clear, signed with the summary it is bound to. */
export function sealToken(seed: number, seal: Seal, content: string): string {
  const payload = Buffer.from(JSON.stringify(seal)).toString('base64url');
  return `${TOKEN_PREFIX}.${payload}.${mac(seed, payload, content)}`;
}

/** The seal a token claims, unchecked; null when it is no token of this mock's. */
export function readSeal(token: string): Seal | null {
  const [prefix, payload, signature, ...rest] = token.split('.');
  if (prefix !== TOKEN_PREFIX || !payload || !signature || rest.length > 0) return null;
  try {
    const seal = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Partial<Seal>;
    const counts = [seal.turn, seal.answers, seal.users, seal.tokens];
    if (typeof seal.run !== 'string' || seal.run === '' || !counts.every((n) => Number.isInteger(n) && (n as number) >= 0)) return null;
    return seal as Seal;
  } catch {
    return null;
  }
}

/**
 * Why the request's compactions are refused, or null: each must be a token this mock signed
 * (with the seed of the run it names) over the summary sent with it, and name the request's run.
 */
export function carriedProblem(
  carried: readonly CarriedCompaction[],
  plans: (runId: string) => RunPlan,
  claimedRun: string | null,
): string | null {
  for (const item of carried) {
    const seal = readSeal(item.token);
    const payload = item.token.split('.')[1] ?? '';
    const expected = seal ? macOfRun(plans, seal.run, payload, item.content) : '';
    const given = item.token.split('.')[2] ?? '';
    if (!seal || expected === '' || given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
      return `${item.path}: not a compaction this provider issued (its content does not verify; send compaction items back as they were returned)`;
    }
    if (claimedRun !== null && seal.run !== claimedRun) {
      return `${item.path}: a compaction issued for run ${seal.run}, in a request of run ${claimedRun}`;
    }
  }
  return null;
}

/** The MAC a token of that run would carry; '' when no run of that name can be planned (a forged name). */
function macOfRun(plans: (runId: string) => RunPlan, run: string, payload: string, content: string): string {
  try {
    return mac(plans(run).seed, payload, content);
  } catch {
    return '';
  }
}

/** OpenAI's cached prefix: none under 1024 tokens, else in steps of 128. */
function openAICached(tokens: number): number {
  return tokens < OPENAI_CACHE_MIN ? 0 : Math.floor(tokens / OPENAI_CACHE_STEP) * OPENAI_CACHE_STEP;
}

export interface CompactionContext {
  format: 'responses' | 'messages';
  runId: string;
  turn: number;
  seed: number;
  /** The request's answers and user messages (its turn is one more than the answers). */
  answers: number;
  users: number;
  /** The summary a compaction block shows (Anthropic); OpenAI's item is opaque. */
  summary: () => string;
  /** Where the compaction comes from: the Responses API or its /responses/compact endpoint. */
  origin?: CompactionOrigin;
}

/** Whether the request compacts, and the usage it is billed, from its window alone. */
export function decideCompaction(window: ContextWindow, context: CompactionContext): ProviderOutcome {
  const { inputTokens, prefixTokens } = window;
  // OpenAI compacts once the input passes its threshold; Anthropic once it reaches its trigger.
  const past =
    window.threshold !== null && (context.format === 'responses' ? inputTokens > window.threshold : inputTokens >= window.threshold);
  const compacts = window.mode === 'param' || (window.mode === 'threshold' && past);
  const cached =
    context.format === 'responses'
      ? { read: openAICached(prefixTokens), write: Math.max(0, openAICached(inputTokens) - openAICached(prefixTokens)) }
      : window.cacheControl
        ? { read: prefixTokens, write: inputTokens - prefixTokens }
        : { read: 0, write: 0 };
  const base = {
    inputTokens,
    cacheReadTokens: cached.read,
    cacheWriteTokens: cached.write,
    compactedTokens: window.baseTokens + SUMMARY_TOKENS,
  };
  if (!compacts) return { ...base, compaction: null, only: false, pass: null };
  const origin = context.origin ?? (context.format === 'responses' ? 'responses' : window.mode === 'param' ? 'messages-param' : 'messages');
  const seal: Seal = {
    run: context.runId,
    turn: context.turn,
    answers: context.answers,
    users: context.users,
    tokens: inputTokens,
    origin,
  };
  const summary = context.format === 'messages' ? context.summary() : '';
  const token = sealToken(context.seed, seal, summary);
  const id = `cmp_${createHash('sha256').update(token).digest('hex').slice(0, 24)}`;
  return {
    ...base,
    compaction: { id, token, summary, signed: origin === 'messages-param' },
    only: window.mode === 'param' || window.pause,
    pass: { inputTokens, cacheReadTokens: cached.read, outputTokens: SUMMARY_TOKENS },
  };
}
