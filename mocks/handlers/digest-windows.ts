/**
 * What the compaction model must be shown of a message, by the contract: its first
 * DIGEST_MESSAGE_HEAD_BYTES and last DIGEST_MESSAGE_TAIL_BYTES of UTF-8, whole characters, the
 * longest that fit (a message within both windows, whole). The checks count on it: a card
 * must keep the identifiers inside those windows (`compaction.card`). The mock measures the
 * texts the plan wrote (the prompts, the agent's texts, the tools' text outputs) in a digest of
 * any format: a text whose first and last characters the digest does not both show verbatim
 * is not measured (dropped by an earlier compaction, elided, or rewritten by a framework), so
 * the check binds where it can tell which message it reads, and never guesses.
 */
import { DIGEST_MESSAGE_HEAD_BYTES, DIGEST_MESSAGE_TAIL_BYTES } from '../../src/contract/limits.ts';
import type { RunPlan } from '../synthetic/plan-run.ts';
import { toolOutput } from '../synthetic/tool-output.ts';

/** Characters at each end of a text the digest must show for the mock to measure it. */
const RECOGNIZED_ENDS = 48;

export interface DigestedText {
  /** How the refusal names it: "the system prompt". */
  name: string;
  text: string;
}

/**
 * The first window the digest breaks, in one line, or null. Lone surrogates are compared as
 * U+FFFD on both sides (a Go kernel decodes them so), and count its 3 bytes, as the kernel does.
 */
export function digestWindowProblem(digest: string, texts: readonly DigestedText[]): string | null {
  const shown = wellFormed(digest);
  for (const { name, text } of texts) {
    const whole = wellFormed(text);
    if (!shown.includes(whole.slice(0, RECOGNIZED_ENDS)) || !shown.includes(whole.slice(-RECOGNIZED_ENDS))) continue;
    const bytes = Buffer.from(whole);
    if (bytes.length <= DIGEST_MESSAGE_HEAD_BYTES + DIGEST_MESSAGE_TAIL_BYTES) {
      if (!shown.includes(whole))
        return `${name} (${bytes.length} bytes) is not in the digest whole, as a message within both windows must be`;
      continue;
    }
    const head = headEnd(bytes, DIGEST_MESSAGE_HEAD_BYTES);
    const tail = tailStart(bytes, DIGEST_MESSAGE_TAIL_BYTES);
    const problem =
      windowProblem(shown, bytes, 0, head, bytes.subarray(head, charEnd(bytes, head)), 'head', DIGEST_MESSAGE_HEAD_BYTES) ??
      windowProblem(shown, bytes, tail, bytes.length, bytes.subarray(charStart(bytes, tail - 1), tail), 'tail', DIGEST_MESSAGE_TAIL_BYTES);
    if (problem) return `${name} (${bytes.length} bytes): ${problem}`;
  }
  return null;
}

/**
 * What the plan wrote that a compaction before `turn` digests: the prompts, then each earlier
 * turn's assistant text and its tools' text outputs (screenshots are counted, never shown).
 */
export function plannedTexts(plan: RunPlan, turn: number): DigestedText[] {
  const texts: DigestedText[] = [
    { name: 'the system prompt', text: plan.systemPrompt },
    { name: 'the user request', text: plan.userRequest },
  ];
  for (const planned of plan.turns.filter((t) => t.turn < turn)) {
    const content = planned.message.content;
    if (typeof content === 'string' && content !== '') texts.push({ name: `the assistant text of turn ${planned.turn}`, text: content });
    for (const call of planned.calls) {
      const output = toolOutput(call.tool, call.args);
      if (typeof output === 'string') texts.push({ name: `the ${call.tool} output of call ${call.id}`, text: output });
    }
  }
  return texts;
}

/** The window [from, to) must be in the digest, and not with the character beyond it (`beyond`, outside the window). */
function windowProblem(
  shown: string,
  bytes: Buffer,
  from: number,
  to: number,
  beyond: Buffer,
  which: 'head' | 'tail',
  limit: number,
): string | null {
  const window = bytes.subarray(from, to).toString();
  const rule = `its ${which} is the longest run of whole characters within ${limit} bytes (${to - from} here)`;
  if (!shown.includes(window)) return `the digest does not show its ${which} whole: ${rule}`;
  const next = beyond.toString();
  const wider = which === 'head' ? window + next : next + window;
  if (shown.includes(wider)) return `the digest shows more than its ${which}: ${rule}`;
  // A character cut in two shows as U+FFFD beside the window (a surrogate pair's half, once well-formed).
  const split = which === 'head' ? `${window}\ufffd` : `\ufffd${window}`;
  if (next !== '\ufffd' && shown.includes(split)) return `the digest splits the character at the edge of its ${which}: ${rule}`;
  return null;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Every lone surrogate as U+FFFD, as TextEncoder and Go's JSON decoder write it. */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** The end of the longest prefix of whole characters within `max` bytes. */
function headEnd(bytes: Buffer, max: number): number {
  let end = max;
  while (end > 0 && isContinuation(bytes[end])) end--;
  return end;
}

/** The start of the longest suffix of whole characters within `max` bytes. */
function tailStart(bytes: Buffer, max: number): number {
  let start = bytes.length - max;
  while (start < bytes.length && isContinuation(bytes[start])) start++;
  return start;
}

/** The end of the character that starts at `at`. */
function charEnd(bytes: Buffer, at: number): number {
  let end = at + 1;
  while (end < bytes.length && isContinuation(bytes[end])) end++;
  return end;
}

/** The start of the character that holds the byte at `at`. */
function charStart(bytes: Buffer, at: number): number {
  let start = at;
  while (start > 0 && isContinuation(bytes[start])) start--;
  return start;
}
