/**
 * What a run's next compaction digest must show, as the mock sees the run: the card it holds
 * and the text it was last answered. The digest is built inside the compaction activity, so the
 * history cannot show what it leaves out; the mock can.
 *
 * The card: the compaction model wrote every card, and a card
 * the kernel accepted comes back in the run's next agent requests. The compaction that follows
 * displaces it, so its digest must show it: a digest that leaves the earlier card out (system
 * messages dropped) has each new card forget all before the previous one, and the history
 * cannot show it, for the digest is built inside the activity. Only the end of each card is
 * kept (its last RECOGNIZED_END_BYTES, half the tail window the digest shows of every message,
 * so a kernel's own separators do not matter): a soak of thousands of runs keeps a kilobyte or
 * two a run. Cards that end alike are told apart no further, which only weakens the rule.
 *
 * Binds for requests that name their binary (longrun's own workers): runs of one id on several
 * binaries then keep apart. A foreign worker's runs of one id on two binaries cannot be told
 * apart, so its requests are not measured.
 */

import { DIGEST_MESSAGE_TAIL_BYTES } from '../../src/contract/limits.ts';
import { wellFormed } from './digest-windows.ts';

/** Characters at the start of an answer's text that the digest's head window of its message shows. */
const RECOGNIZED_START = 48;
/** What the contract's placeholder of an elided assistant text starts with. */
const ELIDED_TEXT = '[elided: assistant text';

/** Bytes at the end of a card that tell it apart: within the digest's tail window of the card's message. */
const RECOGNIZED_END_BYTES = DIGEST_MESSAGE_TAIL_BYTES / 2;

interface RunDigest {
  /** Ends of the cards written since the run's last agent request, newest last. */
  written: string[];
  /** The end of the card the run's latest agent request held, and the turn of that request. */
  held: { end: string; turn: number | null } | null;
  /** The start of the assistant text the run was last answered, and its turn; null when that answer had none. */
  answered: { start: string; turn: number | null } | null;
}

export class DigestLedger {
  private readonly runs = new Map<string, RunDigest>();

  /** A card the compaction model answered with. */
  written(runId: string, binary: string | null, card: string): void {
    if (binary === null) return;
    const cards = this.cardsOf(runId, binary);
    const end = endOf(card);
    if (!cards.written.includes(end)) cards.written.push(end);
  }

  /** An agent request: which card, if any, the run holds now. */
  agentAsked(runId: string, binary: string | null, turn: number | null, digest: string): void {
    if (binary === null) return;
    const cards = this.cardsOf(runId, binary);
    const candidates = [...cards.written].reverse();
    if (cards.held) candidates.push(cards.held.end);
    if (candidates.length === 0) return;
    // Most requests hold the card as written: the well-formed copy of a large request only when they do not.
    const find = (shown: string) => candidates.find((candidate) => shown.includes(candidate));
    const end = find(digest) ?? find(wellFormed(digest));
    cards.held = end === undefined ? null : { end, turn };
    cards.written = [];
  }

  /** The answer the agent model gave the run: its text, if any, is the newest the next digest holds. */
  answered(runId: string, binary: string | null, turn: number | null, text: string): void {
    if (binary === null) return;
    const start = [...wellFormed(text).trim()].slice(0, RECOGNIZED_START).join('');
    this.cardsOf(runId, binary).answered = start === '' ? null : { start, turn };
  }

  /** Why a compaction's digest is refused: it does not show the card the run holds or the text it was last answered; null when it shows both. */
  compactionProblem(runId: string, binary: string | null, digest: string): string | null {
    if (binary === null) return null;
    const run = this.runs.get(key(runId, binary));
    const shown = wellFormed(digest);
    const answered = run?.answered;
    // An elided text shows as a placeholder: a compaction input past the blob limit may elide assistant texts.
    if (answered && !shown.includes(answered.start) && !shown.includes(ELIDED_TEXT)) {
      const turn = answered.turn === null ? '' : ` of turn ${answered.turn}`;
      return `the digest leaves out the assistant text${turn}, the newest in the dialog (${JSON.stringify(`${answered.start}…`)}): its head window shows the start of every message`;
    }
    const held = run?.held;
    if (!held || shown.includes(held.end)) return null;
    const since = held.turn === null ? '' : ` (sent with turn ${held.turn})`;
    const quoted = `${[...held.end].slice(0, 40).join('')}…`;
    return `the digest leaves out the state card the run holds${since}: its last ${Buffer.byteLength(held.end)} bytes (${JSON.stringify(quoted)}) are within the tail window the digest shows of every message; a compaction not shown the earlier card forgets all before it`;
  }

  private cardsOf(runId: string, binary: string): RunDigest {
    const k = key(runId, binary);
    let cards = this.runs.get(k);
    if (!cards) {
      cards = { written: [], held: null, answered: null };
      this.runs.set(k, cards);
    }
    return cards;
  }
}

function key(runId: string, binary: string): string {
  return `${runId}\u0000${binary}`;
}

/** The card's longest end of whole characters within RECOGNIZED_END_BYTES. */
function endOf(card: string): string {
  const characters = [...wellFormed(card).trimEnd()];
  let bytes = 0;
  let start = characters.length;
  while (start > 0 && bytes + Buffer.byteLength(characters[start - 1] as string) <= RECOGNIZED_END_BYTES) {
    start--;
    bytes += Buffer.byteLength(characters[start] as string);
  }
  return characters.slice(start).join('');
}
