import { describe, expect, it } from 'vitest';
import { pieces } from './wire-format.ts';

describe('streamed deltas', () => {
  it('join back to the text and never split a surrogate pair, whatever falls on a cut', () => {
    for (let offset = 0; offset < 40; offset++) {
      const text = `${'a'.repeat(offset)}${'💳 注文 Ё '.repeat(12)}\ud83d`;
      const deltas = pieces(text);
      expect(deltas.join('')).toBe(text);
      for (const delta of deltas.slice(0, -1)) expect(delta).not.toMatch(/[\ud800-\udbff]$/);
    }
  });
});
