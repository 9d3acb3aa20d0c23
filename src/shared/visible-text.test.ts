import { describe, expect, it } from 'vitest';
import { terminalText } from './visible-text.ts';

describe('terminalText', () => {
  it('shows what would drive the terminal as \\uXXXX: ESC, BEL, CR, LF, tab, DEL, C1', () => {
    expect(terminalText('\u001B]0;pwned\u0007\r\n\tx\u007F\u009B2J')).toBe('\\u001B]0;pwned\\u0007\\u000D\\u000A\\u0009x\\u007F\\u009B2J');
  });

  it('shows the separators and the bidirectional overrides that reorder a line', () => {
    expect(terminalText('a\u2028b\u202Ec\u2066d')).toBe('a\\u2028b\\u202Ec\\u2066d');
  });

  it('keeps text of any script, and surrogate pairs, and shows lone surrogates', () => {
    expect(terminalText('Привет 世界 😀 é')).toBe('Привет 世界 😀 é');
    expect(terminalText('x\uD800y\uDC00')).toBe('x\\uD800y\\uDC00');
  });
});
