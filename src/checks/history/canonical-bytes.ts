/**
 * canonicalJson (contract/journal-hash.ts) of a JSON value from its bytes, when those bytes are
 * JSON.stringify's own writing of the value they parse to: no spaces, every string and number as
 * JSON.stringify writes it (stringified.ts), no key repeated, and no key JSON.parse would move
 * ahead of the others (digits: an object lists its array indexes first). Then the bytes are the
 * value's JSON.stringify, and its canonical JSON is the same pieces with every object's keys
 * sorted: a tool output (a screenshot's base64 among its parts) is hashed without being parsed.
 */
import { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-bytes.ts';
import { skipString } from './message-spans.ts';
import { isStringified } from './stringified.ts';

class NotStringified extends Error {}

const LITERALS = ['true', 'false', 'null'];
/** The structural pieces of canonical JSON. */
const PIECE = {
  openArray: Buffer.from('['),
  closeArray: Buffer.from(']'),
  openObject: Buffer.from('{'),
  closeObject: Buffer.from('}'),
  colon: Buffer.from(':'),
  comma: Buffer.from(','),
};

/** The canonical JSON of the value `bytes` hold, as pieces to concatenate; undefined when they are not JSON.stringify's writing of it. */
export function canonicalPieces(bytes: Buffer): Buffer[] | undefined {
  const pieces: Buffer[] = [];
  try {
    return readValue(bytes, 0, pieces) === bytes.length ? pieces : undefined;
  } catch {
    return undefined;
  }
}

function expect(bytes: Buffer, i: number, byte: number): number {
  if (bytes[i] !== byte) throw new NotStringified();
  return i + 1;
}

/** Reads the value at i, pushing its canonical JSON; returns where it ends. */
function readValue(bytes: Buffer, i: number, pieces: Buffer[]): number {
  const first = bytes[i];
  if (first === QUOTE) {
    const end = skipString(bytes, i);
    const string = bytes.subarray(i, end);
    if (!isStringified(string)) throw new NotStringified();
    pieces.push(string);
    return end;
  }
  if (first === OPEN_ARRAY) return readArray(bytes, i, pieces);
  if (first === OPEN_OBJECT) return readObject(bytes, i, pieces);
  let end = i;
  while (end < bytes.length && bytes[end] !== COMMA && bytes[end] !== CLOSE_ARRAY && bytes[end] !== CLOSE_OBJECT) end++;
  const token = bytes.toString('latin1', i, end);
  // A number JSON.stringify would write otherwise (1.0, 1e3, -0) or a literal misspelled is not its writing.
  if (!LITERALS.includes(token) && JSON.stringify(JSON.parse(token)) !== token) throw new NotStringified();
  pieces.push(bytes.subarray(i, end));
  return end;
}

function readArray(bytes: Buffer, i: number, pieces: Buffer[]): number {
  pieces.push(PIECE.openArray);
  let at = i + 1;
  if (bytes[at] !== CLOSE_ARRAY) {
    at = readValue(bytes, at, pieces);
    while (bytes[at] === COMMA) {
      pieces.push(PIECE.comma);
      at = readValue(bytes, at + 1, pieces);
    }
  }
  pieces.push(PIECE.closeArray);
  return expect(bytes, at, CLOSE_ARRAY);
}

interface Member {
  key: string;
  keyBytes: Buffer;
  value: Buffer[];
}

function readObject(bytes: Buffer, i: number, pieces: Buffer[]): number {
  const members: Member[] = [];
  let at = i + 1;
  if (bytes[at] !== CLOSE_OBJECT) {
    for (;;) {
      if (bytes[at] !== QUOTE) throw new NotStringified();
      const keyEnd = skipString(bytes, at);
      const keyBytes = bytes.subarray(at, keyEnd);
      const key = JSON.parse(keyBytes.toString('utf8')) as string;
      if (!isStringified(keyBytes) || /^\d+$/.test(key) || members.some((m) => m.key === key)) throw new NotStringified();
      const value: Buffer[] = [];
      at = readValue(bytes, expect(bytes, keyEnd, COLON), value);
      members.push({ key, keyBytes, value });
      if (bytes[at] !== COMMA) break;
      at++;
    }
  }
  // canonicalJson's order: keys compared as strings.
  members.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  pieces.push(PIECE.openObject);
  members.forEach(({ keyBytes, value }, index) => {
    if (index > 0) pieces.push(PIECE.comma);
    pieces.push(keyBytes, PIECE.colon, ...value);
  });
  pieces.push(PIECE.closeObject);
  return expect(bytes, at, CLOSE_OBJECT);
}
