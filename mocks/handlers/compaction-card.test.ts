import { describe, expect, it } from 'vitest';
import { CARD_MAX_BYTES, CARD_SECTIONS } from '../../src/contract/limits.ts';
import { planRun } from '../synthetic/plan-run.ts';
import { runMessages } from '../synthetic/run-messages.ts';
import { textOf } from './chat-request.ts';
import { extractIdentifiers, writeCard } from './compaction-card.ts';

function headings(card: string): string[] {
  return card.split('\n').filter((line) => line.startsWith('## '));
}

describe('the compaction card', () => {
  const digest = runMessages(planRun({ seed: 5, runId: 'run-5', shape: { screenshots: { share: 0 } } }))
    .map(textOf)
    .join('\n');
  const identifiers = extractIdentifiers(digest);

  it('finds paths, ids, hashes, tickets and numbers verbatim, once each', () => {
    const kinds = new Set(identifiers.map((i) => i.kind));
    for (const kind of ['path', 'id', 'hash', 'number']) expect(kinds).toContain(kind);
    const texts = identifiers.map((i) => i.text);
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts.every((t) => digest.includes(t))).toBe(true);
    expect(extractIdentifiers('see a/b.ts then PROJ-12 then a/b.ts and 4096').map((i) => i.text)).toEqual(['a/b.ts', 'PROJ-12', '4096']);
  });

  it('has the six sections in order, fits 8 KB and carries identifiers verbatim until full', () => {
    const card = writeCard(identifiers, { maxBytes: CARD_MAX_BYTES });
    expect(headings(card)).toEqual([...CARD_SECTIONS]);
    expect(Buffer.byteLength(card)).toBeLessThanOrEqual(CARD_MAX_BYTES);
    // The digest holds far more than fits: the card is filled close to the limit.
    expect(Buffer.byteLength(card)).toBeGreaterThan(CARD_MAX_BYTES - 200);
    const carried = identifiers.filter((i) => card.includes(`\`${i.text}\``));
    expect(carried.length).toBeGreaterThan(100);
    expect(carried.slice(0, 20)).toEqual(identifiers.slice(0, 20));
  });

  it('can be made exactly a size at or past the limit, or short of a section, for faults', () => {
    const oversized = writeCard(identifiers, { maxBytes: CARD_MAX_BYTES, oversizeTo: 12_000 });
    expect(Buffer.byteLength(oversized)).toBe(12_000);
    expect(headings(oversized)).toEqual([...CARD_SECTIONS]);
    // Exactly at the limit, to the byte, whatever is left to pad (here 1 to 80 bytes).
    for (const bytes of [CARD_MAX_BYTES, CARD_MAX_BYTES + 1, 12_001, 12_037]) {
      expect(Buffer.byteLength(writeCard(identifiers, { maxBytes: CARD_MAX_BYTES, oversizeTo: bytes }))).toBe(bytes);
    }
    // Past the limit in UTF-8 bytes, within it in UTF-16 units: a limit checked in units takes it.
    for (const bytes of [CARD_MAX_BYTES + 1, 12_000, Math.round(CARD_MAX_BYTES * 1.5)]) {
      expect(writeCard(identifiers, { maxBytes: CARD_MAX_BYTES, oversizeTo: bytes }).length).toBeLessThanOrEqual(CARD_MAX_BYTES);
    }
    const short = writeCard(identifiers, { maxBytes: CARD_MAX_BYTES, omit: '## Verified' });
    expect(headings(short)).toEqual(CARD_SECTIONS.filter((s) => s !== '## Verified'));
  });
});
