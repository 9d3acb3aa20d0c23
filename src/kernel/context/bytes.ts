/**
 * Byte counting with TextEncoder (never Buffer), which the workflow sandbox, the activities and
 * the tests all have, so the same numbers come out of each. Sizes are UTF-8 bytes of JSON, the
 * form in which Temporal stores a payload.
 */

const NON_ASCII = /[\u0080-\uffff]/;
const encoder = new TextEncoder();
/** Where utf8Bytes encodes to count: grown to the largest string measured, never shrunk. */
let scratch = new Uint8Array(0);

/** What a size counts: UTF-8 bytes, or UTF-16 code units where an activity control counts them (card-in-units, digest-in-units). */
export type SizeUnit = 'utf8-bytes' | 'utf16-units';

/** UTF-8 length of a string, as TextEncoder would encode it (lone surrogates as U+FFFD). */
export function utf8Bytes(text: string): number {
  // Requests are JSON, mostly ASCII (base64 screenshots): one native scan, and the length is the count.
  if (!NON_ASCII.test(text)) return text.length;
  // The native encoder, 3x faster than a loop over the units: a unit takes at most 3 bytes (a
  // pair 4 for its two), and a lone surrogate becomes U+FFFD, 3 bytes, as TextEncoder writes it.
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
  return encoder.encodeInto(text, scratch).written;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** UTF-8 bytes of `JSON.stringify(value)`. */
export function jsonBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value) ?? '');
}

/** The longest prefix of `text` that fits in `maxBytes` UTF-8 bytes, never splitting a character. */
export function utf8Head(text: string, maxBytes: number): string {
  return text.slice(0, utf8FitLength(text, maxBytes, 1));
}

/** The longest suffix of `text` that fits in `maxBytes` UTF-8 bytes, never splitting a character. */
export function utf8Tail(text: string, maxBytes: number): string {
  return text.slice(text.length - utf8FitLength(text, maxBytes, -1));
}

/** How many UTF-16 units, read from the start (direction 1) or the end (-1), fit in maxBytes. */
function utf8FitLength(text: string, maxBytes: number, direction: 1 | -1): number {
  let bytes = 0;
  let units = 0;
  while (units < text.length) {
    const index = direction === 1 ? units : text.length - 1 - units;
    const pairIndex = direction === 1 ? index + 1 : index - 1;
    const code = text.charCodeAt(index);
    const isPair =
      direction === 1
        ? code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(pairIndex))
        : isLowSurrogate(code) && isHighSurrogate(text.charCodeAt(pairIndex));
    const width = isPair ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    if (bytes + width > maxBytes) break;
    bytes += width;
    units += isPair ? 2 : 1;
  }
  return units;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** 812345 -> "812,345": locale-independent, so the same in every process. */
export function formatCount(value: number): string {
  const digits = String(Math.trunc(Math.abs(value)));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 ? `-${grouped}` : grouped;
}
