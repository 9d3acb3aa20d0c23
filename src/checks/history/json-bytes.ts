/** JSON's structural characters as bytes (all ASCII: UTF-8 text needs no decoding to find them). */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COLON = 0x3a;
export const COMMA = 0x2c;

/** The four characters JSON allows between tokens. */
export function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * The UTF-8 bytes of the text a JSON string holds, from the string's raw bytes (its quotes
 * included), without decoding it: each escape counted as what it stands for, a lone surrogate as
 * the 3 bytes of U+FFFD (as Node's encoder writes it). Undefined when `raw` is not a string.
 */
export function jsonStringTextBytes(raw: Buffer): number | undefined {
  if (raw.length < 2 || raw[0] !== QUOTE || raw[raw.length - 1] !== QUOTE) return undefined;
  let bytes = raw.length - 2;
  let at = raw.indexOf(BACKSLASH, 1);
  while (at !== -1 && at < raw.length - 1) {
    if (raw[at + 1] !== 0x75 /* u */) {
      bytes -= 1; // \n, \", \\ ...: two bytes for one
      at = raw.indexOf(BACKSLASH, at + 2);
      continue;
    }
    const unit = Number.parseInt(raw.toString('latin1', at + 2, at + 6), 16);
    const next = raw[at + 6] === BACKSLASH && raw[at + 7] === 0x75 ? Number.parseInt(raw.toString('latin1', at + 8, at + 12), 16) : -1;
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      bytes -= 12 - 4; // a pair: 4 bytes
      at = raw.indexOf(BACKSLASH, at + 12);
      continue;
    }
    bytes -= 6 - (unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3);
    at = raw.indexOf(BACKSLASH, at + 6);
  }
  return bytes;
}
