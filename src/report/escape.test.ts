import { describe, expect, it } from 'vitest';
import { escapeAttribute, escapeText, relativeHref, truncate, visibleControls } from './escape.ts';

describe('visibleControls', () => {
  it('shows the characters XML 1.0 forbids as \\uXXXX and keeps tab, newline, carriage return', () => {
    expect(visibleControls('a\u0000b\u0007c\u001Fd\te\nf\rg\uFFFEh\uFFFF')).toBe('a\\u0000b\\u0007c\\u001Fd\te\nf\rg\\uFFFEh\\uFFFF');
  });

  it('keeps surrogate pairs and shows lone surrogates', () => {
    expect(visibleControls('ok 😀')).toBe('ok 😀');
    expect(visibleControls('x\uD800y')).toBe('x\\uD800y');
    expect(visibleControls('x\uDC00')).toBe('x\\uDC00');
    expect(visibleControls('\uD83D')).toBe('\\uD83D');
  });

  it('returns clean text unchanged', () => {
    expect(visibleControls('payload 2,097,152 bytes')).toBe('payload 2,097,152 bytes');
  });
});

describe('escapeText and escapeAttribute', () => {
  const nasty = `<event id="7"> & 'quoted'\n\u0001`;

  it('escapes markup in element content', () => {
    expect(escapeText(nasty)).toBe(`&lt;event id="7"&gt; &amp; 'quoted'\n\\u0001`);
  });

  it('escapes quotes and whitespace in attribute values', () => {
    expect(escapeAttribute(nasty)).toBe('&lt;event id=&quot;7&quot;&gt; &amp; &#39;quoted&#39;&#10;\\u0001');
    expect(escapeAttribute('a\tb\rc')).toBe('a&#9;b&#13;c');
  });
});

describe('relativeHref', () => {
  it('encodes each segment so none becomes a scheme, a query or a fragment', () => {
    expect(relativeHref('histories/run 1/1.json')).toBe('histories/run%201/1.json');
    expect(relativeHref('javascript:alert(1)')).toBe('javascript%3Aalert(1)');
    expect(relativeHref('histories\\a?b#c/2.json')).toBe('histories/a%3Fb%23c/2.json');
  });
});

describe('truncate', () => {
  it('cuts long text and says how much', () => {
    expect(truncate('abcdef', 4)).toBe('abcd… (2 more characters)');
    expect(truncate('abc', 4)).toBe('abc');
  });
});
