/**
 * The card a run holds, as the mock sees it: the compaction model wrote every card, and a card
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

/** Bytes at the end of a card that tell it apart: within the digest's tail window of the card's message. */
const RECOGNIZED_END_BYTES = DIGEST_MESSAGE_TAIL_BYTES / 2;

interface RunCards {
  /** Ends of the cards written since the run's last agent request, newest last. */
  written: string[];
  /** The end of the card the run's latest agent request held, and the turn of that request. */
  held: { end: string; turn: number | null } | null;
}

export class CardLedger {
  private readonly runs = new Map<string, RunCards>();

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
    const shown = wellFormed(digest);
    const candidates = [...cards.written].reverse();
    if (cards.held) candidates.push(cards.held.end);
    const end = candidates.find((candidate) => shown.includes(candidate));
    cards.held = end === undefined ? null : { end, turn };
    cards.written = [];
  }

  /** Why a compaction's digest is refused: it does not show the card the run holds; null when it does. */
  compactionProblem(runId: string, binary: string | null, digest: string): string | null {
    if (binary === null) return null;
    const held = this.runs.get(key(runId, binary))?.held;
    if (!held || wellFormed(digest).includes(held.end)) return null;
    const since = held.turn === null ? '' : ` (sent with turn ${held.turn})`;
    const shown = `${[...held.end].slice(0, 40).join('')}…`;
    return `the digest leaves out the state card the run holds${since}: its last ${Buffer.byteLength(held.end)} bytes (${JSON.stringify(shown)}) are within the tail window the digest shows of every message; a compaction not shown the earlier card forgets all before it`;
  }

  private cardsOf(runId: string, binary: string): RunCards {
    const k = key(runId, binary);
    let cards = this.runs.get(k);
    if (!cards) {
      cards = { written: [], held: null };
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
