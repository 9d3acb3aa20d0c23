/**
 * What the compaction model must be shown of a message, by the contract: its first
 * DIGEST_MESSAGE_HEAD_BYTES and last DIGEST_MESSAGE_TAIL_BYTES of UTF-8, whole characters, the
 * longest that fit. The checks count on it: a card must keep the identifiers inside those
 * windows (`compaction.card`). The mock measures the texts the plan wrote (the prompts, the
 * agent's texts, the tools' text outputs) that are longer than both windows, in a digest of any
 * format. It measures only a text it can tell apart: its first and last 48 characters each shown
 * once, in that order, and no other planned text starting or ending with them (logs share their
 * first lines; a dropped message's sentence may recur in a later one). A text the digest does
 * not show so (dropped by an earlier compaction, elided, rewritten by a framework) is not
 * measured: the check binds where it can tell which message it reads, and never guesses.
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
  const measured = texts
    .map(({ name, text }) => ({ name, whole: wellFormed(text) }))
    .filter(({ whole }) => Buffer.byteLength(whole) > DIGEST_MESSAGE_HEAD_BYTES + DIGEST_MESSAGE_TAIL_BYTES);
  const starts = countOf(measured.map(({ whole }) => whole.slice(0, RECOGNIZED_ENDS)));
  const ends = countOf(measured.map(({ whole }) => whole.slice(-RECOGNIZED_ENDS)));
  for (const { name, whole } of measured) {
    const start = whole.slice(0, RECOGNIZED_ENDS);
    const end = whole.slice(-RECOGNIZED_ENDS);
    if (starts.get(start) !== 1 || ends.get(end) !== 1 || !shownOnceInOrder(shown, start, end)) continue;
    const bytes = Buffer.from(whole);
    const head = headEnd(bytes, DIGEST_MESSAGE_HEAD_BYTES);
    const tail = tailStart(bytes, DIGEST_MESSAGE_TAIL_BYTES);
    const problem =
      windowProblem(shown, bytes, 0, head, 'head', DIGEST_MESSAGE_HEAD_BYTES) ??
      windowProblem(shown, bytes, tail, bytes.length, 'tail', DIGEST_MESSAGE_TAIL_BYTES);
    if (problem) return `${name} (${bytes.length} bytes): ${problem}`;
  }
  return null;
}

/**
 * What the plan wrote that a compaction before `turn` digests: the prompts, then each earlier
 * turn's assistant text and its tools' text outputs, a screenshot's text part (its caption and
 * page text) among them: a message's one text is its text, whatever a kernel does with its image.
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
      const parts = typeof output === 'string' ? [output] : output.flatMap((part) => (part.type === 'text' ? [part.text] : []));
      if (parts.length === 1) texts.push({ name: `the ${call.tool} output of call ${call.id}`, text: parts[0] as string });
    }
  }
  return texts;
}

/**
 * The window [from, to) must be in the digest, and not with more of the text beside it: the
 * next character when it is no whitespace, else the next three (a kernel's own separator may
 * begin as the text goes on: a head that ends before a newline is followed by the digest's
 * newline too).
 */
function windowProblem(shown: string, bytes: Buffer, from: number, to: number, which: 'head' | 'tail', limit: number): string | null {
  const window = bytes.subarray(from, to).toString();
  const rule = `its ${which} is the longest run of whole characters within ${limit} bytes (${to - from} here)`;
  if (!shown.includes(window)) return `the digest does not show its ${which} whole: ${rule}`;
  // Three characters beyond the window at most: 12 bytes hold them (a cut character there reads as U+FFFD, never used).
  const beyond = [...(which === 'head' ? bytes.subarray(to, to + 12).toString() : bytes.subarray(Math.max(0, from - 12), from).toString())];
  const next = (count: number) => (which === 'head' ? beyond.slice(0, count).join('') : beyond.slice(-count).join(''));
  const nearest = next(1);
  const wider = (more: string) => more !== '' && shown.includes(which === 'head' ? window + more : more + window);
  if ((/\S/.test(nearest) && wider(nearest)) || (beyond.length >= 3 && wider(next(3))))
    return `the digest shows more than its ${which}: ${rule}`;
  // A character cut in two shows as U+FFFD beside the window (a surrogate pair's half, once well-formed).
  const split = which === 'head' ? `${window}\ufffd` : `\ufffd${window}`;
  if (nearest !== '\ufffd' && shown.includes(split)) return `the digest splits the character at the edge of its ${which}: ${rule}`;
  return null;
}

function countOf(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/** `start` and `end` each once in the digest, `start` first. */
function shownOnceInOrder(shown: string, start: string, end: string): boolean {
  const at = shown.indexOf(start);
  const endAt = shown.indexOf(end);
  return at >= 0 && endAt > at && shown.lastIndexOf(start) === at && shown.lastIndexOf(end) === endAt;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Every lone surrogate as U+FFFD, as TextEncoder and Go's JSON decoder write it. */
export function wellFormed(text: string): string {
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
