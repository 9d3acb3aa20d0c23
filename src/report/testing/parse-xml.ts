/**
 * A strict parser for the XML subset the reports write (prolog, elements, double-quoted
 * attributes, text, the five entities and character references). It throws on anything
 * malformed, so a test can both prove well-formedness and read values back unescaped.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = /[A-Za-z_][\w.-]*/y;

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    code >= 0x10000
  );
}

function decode(raw: string, at: number): string {
  for (const char of raw) {
    const code = char.codePointAt(0) ?? 0;
    if (!isXmlChar(code)) throw new Error(`character U+${code.toString(16)} not allowed in XML near offset ${at}`);
    if (char === '<') throw new Error(`raw '<' near offset ${at}`);
  }
  return raw.replace(/&([^;]*);|&/g, (match, entity: string | undefined) => {
    if (entity === undefined) throw new Error(`bare '&' near offset ${at}`);
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    const named = NAMED_ENTITIES[entity];
    if (named === undefined) throw new Error(`unknown entity ${match} near offset ${at}`);
    return named;
  });
}

export function parseXml(xml: string): XmlElement {
  let pos = 0;
  const expect = (literal: string) => {
    if (!xml.startsWith(literal, pos)) throw new Error(`expected ${JSON.stringify(literal)} at offset ${pos}`);
    pos += literal.length;
  };
  const skipSpace = () => {
    while (/\s/.test(xml[pos] ?? '')) pos++;
  };
  const name = (): string => {
    NAME.lastIndex = pos;
    const match = NAME.exec(xml);
    if (!match) throw new Error(`expected a name at offset ${pos}`);
    pos += match[0].length;
    return match[0];
  };
  const element = (): XmlElement => {
    expect('<');
    const node: XmlElement = { name: name(), attributes: {}, children: [], text: '' };
    for (;;) {
      skipSpace();
      if (xml.startsWith('/>', pos)) {
        pos += 2;
        return node;
      }
      if (xml[pos] === '>') break;
      const attribute = name();
      if (attribute in node.attributes) throw new Error(`duplicate attribute ${attribute} at offset ${pos}`);
      expect('="');
      const end = xml.indexOf('"', pos);
      if (end < 0) throw new Error(`unterminated attribute ${attribute}`);
      node.attributes[attribute] = decode(xml.slice(pos, end), pos);
      pos = end + 1;
    }
    pos++;
    for (;;) {
      const next = xml.indexOf('<', pos);
      if (next < 0) throw new Error(`unclosed <${node.name}>`);
      node.text += decode(xml.slice(pos, next), pos);
      pos = next;
      if (xml.startsWith('</', pos)) {
        pos += 2;
        const closing = name();
        if (closing !== node.name) throw new Error(`</${closing}> closes <${node.name}> at offset ${pos}`);
        skipSpace();
        expect('>');
        return node;
      }
      node.children.push(element());
    }
  };
  expect('<?xml version="1.0" encoding="UTF-8"?>');
  skipSpace();
  const root = element();
  skipSpace();
  if (pos !== xml.length) throw new Error(`content after the root element at offset ${pos}`);
  return root;
}

/** Every element named `name` under `root`, depth first. */
export function findAll(root: XmlElement, name: string): XmlElement[] {
  const found = root.name === name ? [root] : [];
  return found.concat(root.children.flatMap((child) => findAll(child, name)));
}
