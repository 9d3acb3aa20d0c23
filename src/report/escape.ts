/**
 * Escaping for the XML and HTML the reports write. Evidence comes from histories and may hold
 * anything, including characters XML 1.0 forbids even as references: those are shown as
 * `\uXXXX` so the reader still sees them and the file stays well-formed.
 */
import { showCodeUnits } from '../shared/visible-text.ts';

function isForbiddenInXml(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff;
}

/** Replaces the code units XML 1.0 cannot carry (controls, U+FFFE/U+FFFF, lone surrogates) by `\uXXXX`. */
export function visibleControls(text: string): string {
  return showCodeUnits(text, isForbiddenInXml);
}

const TEXT_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTRIBUTE_ENTITIES: Record<string, string> = {
  ...TEXT_ENTITIES,
  '"': '&quot;',
  "'": '&#39;',
  // Attribute-value normalization would turn these into spaces: keep them as references.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Element content, in XML and HTML. */
export function escapeText(text: string): string {
  return visibleControls(text).replace(/[&<>]/g, (c) => TEXT_ENTITIES[c] ?? c);
}

/** A quoted attribute value, in XML and HTML. */
export function escapeAttribute(text: string): string {
  return visibleControls(text).replace(/[&<>"'\t\n\r]/g, (c) => ATTRIBUTE_ENTITIES[c] ?? c);
}

/** A relative path as an href: each segment percent-encoded, so no segment can become a scheme or a query. */
export function relativeHref(path: string): string {
  return path
    .split(/[\\/]/)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

export { truncate } from '../shared/truncate.ts';
