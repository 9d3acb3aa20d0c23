import { TAIL_MAX_GROUPS, TAIL_MIN_GROUPS } from '../../contract/limits.ts';
import type { MessageSummary, PartSummary } from '../history/model.ts';
import { acceptedAt, dialogBeforeCompaction, turnDialog, turnLabel } from '../run/compactions.ts';
import { dialogBytes, type ExpectedMessage } from '../run/dialog.ts';
import { isPlaceholderText } from '../run/placeholders.ts';
import { type Activity, callRequest, type RunView, type Turn } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, judge } from '../verdict.ts';

/** An item of a payload, whole or elided: where it is, what it is, its UTF-8 bytes in the dialog. */
interface Item {
  message: number;
  part: number;
  what: 'screenshot' | 'tool output' | 'assistant text';
  bytes: number;
}

/** What elision did to one payload against the dialog it was taken from. */
interface Elision {
  elided: Item[];
  kept: Item[];
}

function whatOf(part: PartSummary, role: string): Item['what'] | null {
  if (part.kind === 'screenshot') return 'screenshot';
  if (part.kind !== 'text') return null;
  return role === 'assistant' ? 'assistant text' : 'tool output';
}

/**
 * The items a payload elided (a part of the dialog the payload replaced with a text, which the
 * run's previous request did not already send in its place) and those it kept whole, in tool and
 * assistant messages that line up with the dialog's.
 */
function elisionOf(sent: readonly MessageSummary[], dialog: readonly ExpectedMessage[], previous: readonly MessageSummary[]): Elision {
  const elided: Item[] = [];
  const kept: Item[] = [];
  sent.forEach((message, index) => {
    const held = dialog[index];
    if (!held || 'unknownContent' in held || held.role !== message.role) return;
    if (message.role !== 'tool' && message.role !== 'assistant') return;
    if (!message.parts || !held.parts || message.parts.length !== held.parts.length) return;
    message.parts.forEach((part, at) => {
      const before = held.parts?.[at] as PartSummary;
      const what = whatOf(before, message.role);
      if (what === null || before.bytes === undefined || isPlaceholderText(before.text)) return;
      const item = { message: index, part: at, what, bytes: before.bytes };
      const same = part.kind === before.kind && part.bytes === before.bytes && part.text === before.text;
      // A kernel keeps what it elided: a placeholder the previous request already sent here is that request's elision.
      const earlier = previous[index]?.parts?.[at];
      const elidedBefore = earlier !== undefined && earlier.kind === 'text' && earlier.text !== undefined && earlier.text === part.text;
      if (same) kept.push(item);
      else if (part.kind === 'text' && !elidedBefore) elided.push(item);
    });
  });
  return { elided, kept };
}

const describeItem = (item: Item) =>
  `${item.what === 'assistant text' ? 'an' : 'a'} ${item.what} of ${bytes(item.bytes)} bytes (message ${item.message}, part ${item.part})`;

/**
 * The rule: items above the big-item threshold may go in any order (v0's guard takes them oldest
 * first, and current binaries keep that pass so that old runs replay unchanged); at or below it,
 * a smaller item goes only once every larger one of its class has gone. Tool items (outputs and
 * screenshots) and assistant texts are two classes: a request never elides texts, and a
 * compaction's input, which may, starts from the request's elisions. Charged: the smallest item
 * elided at or below the threshold, against the largest of its class kept whole.
 */
function orderProblem(elision: Elision, bigItemBytes: number): string | null {
  for (const texts of [false, true]) {
    const inClass = (item: Item) => (item.what === 'assistant text') === texts;
    const small = elision.elided.filter((item) => inClass(item) && item.bytes <= bigItemBytes);
    const kept = elision.kept.filter(inClass);
    if (small.length === 0 || kept.length === 0) continue;
    const smallest = small.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    const largest = kept.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    if (largest.bytes <= smallest.bytes) continue;
    return `elided ${describeItem(smallest)} and kept ${describeItem(largest)} whole: elision takes the largest items first (at or below the big-item threshold of ${bytes(bigItemBytes)} bytes, 1/16 of the blob limit), so the run loses more of its context than the limit demands`;
  }
  return null;
}

/**
 * The rebuild's tail keeps as many whole groups as fit: when it keeps its groups verbatim and
 * fewer than 8 (and than the dialog had), the group before them must not have fit within the
 * tail max. Measured on the dialog as it stood, whole where the history holds it; a tail that
 * elides inside is rebuild.contract's to judge.
 */
function tailProblem(
  tail: readonly MessageSummary[],
  before: readonly ExpectedMessage[],
  stood: readonly ExpectedMessage[] | null,
  tailMaxBytes: number,
): string | null {
  const groups = tail.filter((message) => message.role === 'assistant').length;
  const available = before.filter((message) => message.role === 'assistant').length;
  if (groups < Math.min(TAIL_MIN_GROUPS, available) || groups >= Math.min(available, TAIL_MAX_GROUPS)) return null;
  const verbatim = before
    .slice(before.length - tail.length)
    .every((message, index) => 'hash' in message && message.hash === tail[index]?.hash);
  if (!verbatim || !stood || stood.length <= tail.length) return null;
  let start = stood.length - tail.length - 1;
  while (start >= 0 && stood[start]?.role !== 'assistant') start--;
  const withGroup = start < 0 ? null : dialogBytes(stood.slice(start));
  if (withGroup === null || withGroup > tailMaxBytes) return null;
  return `the tail keeps ${groups} turn groups where ${groups + 1} fit (${bytes(withGroup)} bytes <= tail max ${bytes(tailMaxBytes)}): it keeps as many whole groups as fit, up to ${TAIL_MAX_GROUPS}`;
}

/** The payloads a turn elided, each with the dialog it was taken from: its compaction inputs, its first request (or the rebuild's tail). */
function* turnPayloads(run: RunView, turn: Turn) {
  const held = turnDialog(run, turn);
  for (const compaction of turn.compactions) {
    const sent = compaction.input.kind === 'compact-context' ? compaction.input.messages : undefined;
    const dialog = sent && held();
    if (sent && dialog && sent.length === dialog.length) yield { activity: compaction, what: "the compaction's input", sent, dialog };
  }
  const first = turn.calls[0] as Activity | undefined;
  const request = first && callRequest(first);
  if (!first || !request) return;
  const accepted = acceptedAt(run, turn.compactions);
  if (accepted) {
    // The rebuild's tail against the last messages of the dialog the compaction displaced.
    const before = dialogBeforeCompaction(accepted.compaction, held);
    const tail = request.messages.slice(3);
    if (before && tail.length <= before.length) {
      const rebuild = { before, stood: held() };
      yield { activity: first, what: "the rebuild's tail", sent: tail, dialog: before.slice(before.length - tail.length), rebuild };
    }
    return;
  }
  const dialog = held();
  if (dialog && request.messages.length === dialog.length) yield { activity: first, what: 'the request', sent: request.messages, dialog };
}

/**
 * Elision keeps what it can: a payload past its limit (a request, a compaction's input, the
 * rebuild's tail) loses its largest items first, so no smaller item is elided while a larger
 * one stays whole. Items over the big-item threshold are exempt from the order (an older binary's
 * pass takes them oldest first), never from standing before the smaller ones.
 */
export const elisionMinimal: HistoryInvariant = {
  id: 'elision.minimal',
  appliesTo: 'kernel',
  description:
    'a request, a compaction input or a rebuilt tail past its limit elides its largest items first: at or below the big-item threshold (1/16 of the blob limit) no item is elided while a larger one is kept whole',
  check(run, ctx) {
    const failures: string[] = [];
    let elisions = 0;
    let tails = 0;
    let items = 0;
    const bigItemBytes = Math.floor(ctx.limits.blobLimitBytes / 16);
    // The run's last request: a ContinueAsNew carries its dialog whole, elisions and all.
    let previous: readonly MessageSummary[] = [];
    for (const execution of run.executions) {
      for (const turn of execution.turns) {
        for (const payload of turnPayloads(run, turn)) {
          const where = `${run.at(execution, payload.activity.scheduled.id)} (${turnLabel(turn)}), ${payload.what}`;
          const rebuild = 'rebuild' in payload ? payload.rebuild : undefined;
          if (rebuild) {
            tails++;
            const problem = tailProblem(payload.sent, rebuild.before, rebuild.stood, ctx.limits.tailMaxBytes);
            if (problem) failures.push(`${where}: ${problem}`);
          }
          const elision = elisionOf(payload.sent, payload.dialog, rebuild ? [] : previous);
          if (elision.elided.length === 0) continue;
          elisions++;
          items += elision.elided.length;
          const problem = orderProblem(elision, bigItemBytes);
          if (problem) failures.push(`${where}: ${problem}`);
        }
        const last = turn.calls.at(-1);
        const request = last && callRequest(last);
        if (request) previous = request.messages;
      }
    }
    const notes = [
      elisions > 0 ? `${elisions} elisions judged, ${items} items elided` : 'no payload elided an item',
      `${tails} rebuilt tails judged`,
    ];
    return judge(this.id, failures, notes, elisions > 0 || tails > 0);
  },
};
