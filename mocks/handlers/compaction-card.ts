/**
 * The compaction model's answer: a state card with exactly the six sections, in order, within
 * the byte limit, carrying verbatim as many of the digest's identifiers (paths, ids, hashes,
 * numbers) as fit, in the order it is given them.
 */
import { extractIdentifiers as extractContractIdentifiers } from '../../src/contract/identifiers.ts';
import { CARD_SECTIONS } from '../../src/contract/limits.ts';
import type { CardSection, CardUntidyStyle } from '../faults/fault-profile.ts';

type IdentifierKind = 'uuid' | 'hash' | 'path' | 'id' | 'number';

export interface Identifier {
  kind: IdentifierKind;
  text: string;
}

function kindOf(text: string): IdentifierKind {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(text)) return 'uuid';
  if (text.includes('/')) return 'path';
  if (/^[0-9a-f]+$/i.test(text) && /[a-f]/i.test(text)) return 'hash';
  if (/^\d+(\.\d+)?$/.test(text)) return 'number';
  return 'id';
}

/**
 * Identifiers in order of first appearance, each once, as the checks define them (the card
 * must carry them verbatim), with a kind that decides their section.
 */
export function extractIdentifiers(text: string): Identifier[] {
  return extractContractIdentifiers(text).map((identifier) => ({ kind: kindOf(identifier), text: identifier }));
}

const SECTION_OF: Record<IdentifierKind, CardSection> = {
  hash: '## Decisions',
  path: '## Files and artifacts',
  uuid: '## Verified',
  id: '## Verified',
  number: '## Open questions',
};

const LEADS: Record<CardSection, string> = {
  '## Task': 'Continue the user request as given in the original messages; these identifiers name it:',
  '## Decisions': 'Work continues from these commits and hashes, as decided earlier in the run:',
  '## Files and artifacts': 'Files read, changed or produced so far:',
  '## Verified': 'Checked against tool output (ids seen in results):',
  '## Open questions': 'Figures still to explain:',
  '## Next step': 'Resume from the last turn kept verbatim below this card; re-run the failing check first.',
};

export interface CardOptions {
  maxBytes: number;
  /** Pad the card to exactly this many bytes, at or past maxBytes (the oversized-card fault). */
  oversizeTo?: number;
  /** Leave this section out (the card-missing-section fault). */
  omit?: CardSection;
  /** Wrap it as chat models do (the card-untidy fault), still within maxBytes. */
  untidy?: CardUntidyStyle;
}

/** What a chat model writes before the card when it is asked for the card alone. */
export const CARD_PREAMBLE = 'Here is the state card:\n\n';
const HEADING_SPACES = '  ';

export function writeCard(identifiers: readonly Identifier[], options: CardOptions): string {
  const bodies = new Map<CardSection, string[]>(CARD_SECTIONS.map((s) => [s, [LEADS[s]]]));
  const preamble = options.untidy === 'preamble' ? CARD_PREAMBLE : '';
  const spaces = options.untidy === 'trailing-spaces' ? HEADING_SPACES : '';
  const render = () =>
    preamble +
    CARD_SECTIONS.filter((s) => s !== options.omit)
      .map((s) => `${s}${spaces}\n${(bodies.get(s) as string[]).join('\n')}`)
      .join('\n\n');
  const target = options.oversizeTo;
  // A card past the limit is a model writing on in the team's language: its identifiers in a third
  // of it, the rest notes in Chinese (3 bytes a UTF-16 unit), so that it is over the limit in UTF-8
  // bytes while within it in UTF-16 units, and a limit checked in the wrong unit takes it.
  const identifierBytes = target !== undefined && target > options.maxBytes ? Math.floor(target / 3) : options.maxBytes;
  let size = Buffer.byteLength(render());
  for (const identifier of identifiers) {
    const line = `- \`${identifier.text}\``;
    const cost = Buffer.byteLength(line) + 1;
    if (size + cost > identifierBytes) continue;
    (bodies.get(SECTION_OF[identifier.kind]) as string[]).push(line);
    size += cost;
  }
  if (target !== undefined) {
    const open = bodies.get('## Open questions') as string[];
    for (let i = 1; size < target; i++) {
      // The last line takes the bytes left (each line costs its bytes and a newline): exactly `target` bytes.
      const note = `- 未解决的问题 ${i}：摘要多次重复这一点，却始终没有给出结论。`;
      const line = size + Buffer.byteLength(note) + 1 <= target ? note : '-'.repeat(target - size - 1);
      open.push(line);
      size += Buffer.byteLength(line) + 1;
    }
  }
  return render();
}
