import { describe, expect, it } from 'vitest';
import { findAll, parseXml } from './parse-xml.ts';

const PROLOG = '<?xml version="1.0" encoding="UTF-8"?>\n';

describe('parseXml (the tests rely on it to reject malformed XML)', () => {
  it('reads elements, attributes and text back unescaped', () => {
    const root = parseXml(`${PROLOG}<a x="1 &amp; &quot;2&quot;&#10;"><b>&lt;t&gt; &#x41;</b><b/></a>`);
    expect(root.attributes.x).toBe('1 & "2"\n');
    expect(findAll(root, 'b').map((b) => b.text)).toEqual(['<t> A', '']);
  });

  it.each([
    ['a bare ampersand', '<a>x & y</a>', /bare '&'/],
    ['a raw less-than in an attribute', '<a x="<"/>', /raw '<'/],
    ['a control character', '<a>\u0007</a>', /not allowed/],
    ['mismatched tags', '<a><b></a></b>', /closes/],
    ['an unknown entity', '<a>&nbsp;</a>', /unknown entity/],
    ['an unquoted attribute', '<a x=1/>', /expected "=\\""/],
    ['two roots', '<a/><b/>', /after the root/],
  ])('rejects %s', (_, body, error) => {
    expect(() => parseXml(PROLOG + body)).toThrow(error);
  });
});
