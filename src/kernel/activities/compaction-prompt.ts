/** The instructions the compaction model gets with the digest. */
import { CARD_SECTIONS } from '../../contract/limits.ts';

export function compactionPrompt(cardMaxBytes: number): string {
  return [
    'You compact the history of a long-running agent into a state card that replaces the displaced turns.',
    `Answer with the card only: Markdown of at most ${cardMaxBytes} bytes with exactly these sections, in this order, each once:`,
    ...CARD_SECTIONS,
    'Carry every identifier verbatim: paths, ids, hashes, numbers, commands, URLs. Keep verifications verbatim;',
    'summarise reasoning. Screenshots are only counted in the digest; do not invent their content.',
  ].join('\n');
}
