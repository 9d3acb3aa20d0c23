import { describe, expect, it } from 'vitest';
import { CARD_MAX_BYTES, CARD_SECTIONS } from '../../contract/limits.ts';
import { cardProblem } from './card.ts';

const valid = CARD_SECTIONS.map((section, i) => `${section}\nbody ${i} /srv/app.ts sha 1a2b3c`).join('\n\n');

describe('cardProblem', () => {
  it('accepts the six sections in order within the size limit', () => {
    expect(cardProblem(valid, CARD_MAX_BYTES)).toBeNull();
    expect(cardProblem(`\n${valid}\n`, CARD_MAX_BYTES)).toBeNull();
    expect(cardProblem(valid.replace('body 2', '### sub-heading\nbody 2'), CARD_MAX_BYTES)).toBeNull();
  });

  it('rejects a card over the limit', () => {
    expect(cardProblem(valid, valid.length - 1)).toBe(`card is ${valid.length} bytes, over the ${valid.length - 1}-byte limit`);
  });

  it('rejects missing, repeated, reordered or extra sections and text before the first one', () => {
    const without = valid.replace('## Verified\n', '');
    expect(cardProblem(without, CARD_MAX_BYTES)).toMatch(/^card sections must be exactly/);
    expect(cardProblem(`${valid}\n## Next step\nagain`, CARD_MAX_BYTES)).toMatch(/^card sections must be exactly/);
    expect(cardProblem(valid.replace('## Decisions', '## Extra\n## Decisions'), CARD_MAX_BYTES)).toMatch(/sections/);
    const swapped = valid
      .replace('## Verified', '## TMP')
      .replace('## Open questions', '## Verified')
      .replace('## TMP', '## Open questions');
    expect(cardProblem(swapped, CARD_MAX_BYTES)).toMatch(/sections/);
    expect(cardProblem(`Here is the card:\n${valid}`, CARD_MAX_BYTES)).toBe('card must start with "## Task"');
    expect(cardProblem('', CARD_MAX_BYTES)).toBe('card must start with "## Task"');
  });
});
