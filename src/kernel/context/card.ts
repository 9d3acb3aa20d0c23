/**
 * The state card: what the compaction model returns and the rebuild puts in as one framed
 * system message.
 */
import { CARD_SECTIONS } from '../../contract/limits.ts';
import type { Message } from '../../contract/messages.ts';
import { type SizeUnit, utf8Bytes } from './bytes.ts';

/** The frame around the card, so the model reads it as memory rather than as instructions. */
export const CARD_FRAME =
  'This is a record of displaced work: the earlier turns of this run were compacted into the state card below. ' +
  'Identifiers in it (paths, ids, hashes, numbers) are verbatim; the turns after it are verbatim too. ' +
  'Continue the task from it.';

export function cardMessage(card: string): Extract<Message, { role: 'system' }> {
  return { role: 'system', content: `${CARD_FRAME}\n\n${card}` };
}

/**
 * Why a card is not acceptable, or null when it is: size, and exactly the six sections in order.
 * `unit`: UTF-8 bytes, the contract; `'utf16-units'` is the card-in-units control's slip.
 */
export function cardProblem(card: string, maxBytes: number, unit: SizeUnit = 'utf8-bytes'): string | null {
  const bytes = unit === 'utf16-units' ? card.length : utf8Bytes(card);
  if (bytes > maxBytes) return `card is ${bytes} bytes, over the ${maxBytes}-byte limit`;
  const lines = card.split('\n').map((line) => line.trimEnd());
  if (lines.find((line) => line.trim() !== '') !== CARD_SECTIONS[0]) {
    return `card must start with "${CARD_SECTIONS[0]}"`;
  }
  const headings = lines.filter((line) => line.startsWith('## '));
  const expected = CARD_SECTIONS.join(' | ');
  if (headings.join(' | ') !== expected) {
    return `card sections must be exactly "${expected}", got "${headings.join(' | ')}"`;
  }
  return null;
}
