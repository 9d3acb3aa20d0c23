/**
 * Whether a JSON string's bytes are exactly what JSON.stringify writes (in UTF-8) for the string
 * they parse to: then those bytes stand for the string, and a message around it need not be
 * parsed and serialized again to be measured and hashed. JSON.stringify escapes `"`, `\`, the
 * control characters (\b \t \n \f \r by name, the others as \u00xx) and lone surrogates
 * (\udxxx), in lowercase hex, and writes every other character as it is; anything else (`\/`,
 * `\u00e9`, uppercase hex, an escaped surrogate pair, a raw control character, malformed UTF-8)
 * is valid JSON, or not, but not that form.
 */
import { isUtf8 } from 'node:buffer';
import { BACKSLASH, QUOTE } from './json-bytes.ts';

/** The escapes JSON.stringify writes by name: `"`, `\`, b, f, n, r, t. */
const NAMED = new Set([0x22, 0x5c, 0x62, 0x66, 0x6e, 0x72, 0x74]);
/** The control characters those names stand for (\b \t \n \f \r), which JSON.stringify never writes as \u00xx. */
const NAMED_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);
const LETTER_U = 0x75;

/** A lowercase hex digit's value; -1 for anything else. */
function hexDigit(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  return -1;
}

/** The code unit of a \uxxxx escape at i (its backslash), in lowercase hex; -1 when it is not one. */
function escapedUnit(bytes: Buffer, i: number): number {
  if (bytes[i] !== BACKSLASH || bytes[i + 1] !== LETTER_U) return -1;
  let unit = 0;
  for (let at = i + 2; at < i + 6; at++) {
    const digit = hexDigit(bytes[at]);
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

function isSpecial(byte: number): boolean {
  return byte < 0x20 || byte === QUOTE || byte === BACKSLASH;
}

/** Whether a 4-byte word holds a byte below 0x20 (it borrows into the high bit), or 0x22 or 0x5c (xored with it, the same). */
function holdsSpecial(word: number): boolean {
  const quote = word ^ 0x22222222;
  const backslash = word ^ 0x5c5c5c5c;
  return ((((word - 0x20202020) & ~word) | ((quote - 0x01010101) & ~quote) | ((backslash - 0x01010101) & ~backslash)) & 0x80808080) !== 0;
}

/**
 * Finds, from a position up to `to`, the next byte that needs a look: a control character, a quote
 * or a backslash. Tool outputs are long and hold few: they are passed four bytes at a time.
 */
function specialFinder(bytes: Buffer, to: number): (from: number) => number {
  // The first position on a 4-byte boundary of the memory, and the words from there.
  const aligned = (4 - (bytes.byteOffset & 3)) & 3;
  const words = new Int32Array(bytes.buffer, bytes.byteOffset + aligned, Math.max(0, (to - aligned) >> 2));
  return (from) => {
    let i = from;
    while (i < to && (i < aligned || (i - aligned) & 3)) {
      if (isSpecial(bytes[i] as number)) return i;
      i++;
    }
    if (i === to) return to;
    let word = (i - aligned) >> 2;
    while (word < words.length && !holdsSpecial(words[word] as number)) word++;
    for (i = Math.max(i, aligned + word * 4); i < to; i++) if (isSpecial(bytes[i] as number)) return i;
    return to;
  };
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Whether `bytes` (a JSON string, its quotes included) is JSON.stringify's own writing of the string it holds. */
export function isStringified(bytes: Buffer): boolean {
  const last = bytes.length - 1;
  if (last < 1 || bytes[0] !== QUOTE || bytes[last] !== QUOTE || !isUtf8(bytes)) return false;
  const nextSpecial = specialFinder(bytes, last);
  for (let i = nextSpecial(1); i < last; i = nextSpecial(i + 1)) {
    if (bytes[i] !== BACKSLASH) return false;
    // The closing quote is never escaped.
    if (i + 1 === last) return false;
    if (NAMED.has(bytes[i + 1] as number)) {
      i++;
      continue;
    }
    const unit = escapedUnit(bytes, i);
    const control = unit >= 0 && unit < 0x20 && !NAMED_CONTROLS.has(unit);
    // A high surrogate is lone unless a low one follows. Uppercase hex reads as -1: that escape is refused on its own.
    const lone = isLow(unit) || (unit >= 0xd800 && unit <= 0xdbff && !isLow(escapedUnit(bytes, i + 6)));
    if (!control && !lone) return false;
    i += 5;
  }
  return true;
}
