/**
 * Where the messages of a model request sit in its payload's JSON bytes, without parsing them.
 * A run re-sends its whole dialog every turn: parsing and re-serializing every request cost
 * most of the time of loading a long run. The scanner finds the request's `messages` array, and
 * each message's bytes in it; a message whose bytes an earlier request already held is the
 * same message, so only the new ones are parsed.
 *
 * Structure only: strings, brackets, commas, colons and the four JSON spaces. What it cuts out is
 * validated by JSON.parse (the request around an empty list, each new message). Anything it does
 * not expect returns undefined, and the caller parses the whole payload as before.
 */

import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isSpace, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-bytes.ts';

class Unexpected extends Error {}

function skipSpace(bytes: Buffer, i: number): number {
  while (i < bytes.length && isSpace(bytes[i])) i++;
  return i;
}

function expect(bytes: Buffer, i: number, byte: number): number {
  if (bytes[i] !== byte) throw new Unexpected();
  return i + 1;
}

/** The end of the string whose opening quote is at i (one past its closing quote); throws when it does not close. */
export function skipString(bytes: Buffer, i: number): number {
  let at = i + 1;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, at);
    if (quote < 0) throw new Unexpected();
    // A quote preceded by an odd number of backslashes is escaped.
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** The end of the JSON value starting at i (no leading space). */
function skipValue(bytes: Buffer, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return skipString(bytes, i);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    // A number or a literal: up to the next delimiter; JSON.parse judges it.
    let end = i;
    while (end < bytes.length && !isDelimiter(bytes[end] as number)) end++;
    if (end === i) throw new Unexpected();
    return end;
  }
  let depth = 0;
  for (let at = i; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) at = skipString(bytes, at) - 1;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return at + 1;
    }
  }
  throw new Unexpected();
}

function isDelimiter(byte: number): boolean {
  return (
    byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
  );
}

/** The messages of an earlier request: its array's bytes and where each message ends in them. */
export interface MessageArray {
  /** From `[` to `]`. */
  bytes: Buffer;
  /** Per message, its start and end (one past it) from the array's start. */
  spans: [number, number][];
}

/** How many of the earlier array's messages the new array starts with, byte for byte (separators included). */
function sharedMessages(bytes: Buffer, start: number, earlier: MessageArray | undefined): number {
  if (!earlier) return 0;
  const same = (count: number): boolean => {
    const end = (earlier.spans[count - 1] as [number, number])[1];
    return start + end <= bytes.length && bytes.compare(earlier.bytes, 0, end, start, start + end) === 0;
  };
  let low = 0;
  let high = earlier.spans.length;
  if (high > 0 && same(high)) return high;
  high--;
  // Sharing is monotonic: a longer shared run contains the shorter ones.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (same(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The array opening at `start`: its end and its items' spans, the earlier array's shared ones reused. */
function scanArray(bytes: Buffer, start: number, earlier: MessageArray | undefined): Scanned {
  const shared = sharedMessages(bytes, start, earlier);
  const spans = earlier ? earlier.spans.slice(0, shared) : [];
  let at = start + 1;
  if (shared > 0) at = start + (spans[shared - 1] as [number, number])[1];
  else {
    at = skipSpace(bytes, at);
    if (bytes[at] === CLOSE_ARRAY) return { end: at + 1, spans, shared };
    const end = skipValue(bytes, at);
    spans.push([at - start, end - start]);
    at = end;
  }
  for (;;) {
    at = skipSpace(bytes, at);
    if (bytes[at] === CLOSE_ARRAY) return { end: at + 1, spans, shared };
    at = skipSpace(bytes, expect(bytes, at, COMMA));
    const end = skipValue(bytes, at);
    spans.push([at - start, end - start]);
    at = end;
  }
}

/**
 * Walks the object opening at i down `path` (keys) and hands the value at its end to `atValue`,
 * which returns where that value ends; returns where the object ends.
 */
function walkObject(bytes: Buffer, i: number, path: readonly string[], atValue: (at: number) => number): number {
  let at = skipSpace(bytes, expect(bytes, i, OPEN_OBJECT));
  if (bytes[at] === CLOSE_OBJECT) return at + 1;
  let sawKey = false;
  for (;;) {
    if (bytes[at] !== QUOTE) throw new Unexpected();
    const keyEnd = skipString(bytes, at);
    const key = JSON.parse(bytes.toString('utf8', at, keyEnd)) as string;
    at = skipSpace(bytes, expect(bytes, skipSpace(bytes, keyEnd), COLON));
    let end: number;
    if (key !== path[0]) end = skipValue(bytes, at);
    else {
      // JSON.parse keeps the last of a repeated key: leave such a payload to it.
      if (sawKey) throw new Unexpected();
      sawKey = true;
      if (path.length === 1) end = atValue(at);
      else {
        if (bytes[at] !== OPEN_OBJECT) throw new Unexpected();
        end = walkObject(bytes, at, path.slice(1), atValue);
      }
    }
    at = skipSpace(bytes, end);
    if (bytes[at] === CLOSE_OBJECT) return at + 1;
    at = skipSpace(bytes, expect(bytes, at, COMMA));
  }
}

/** An array scanned: where it ends, its items' spans, how many of them the earlier array held. */
interface Scanned {
  end: number;
  spans: [number, number][];
  shared: number;
}

/** A payload's JSON with one array cut out: the text around it (`[]` in its place), and the array. */
export interface CutArray {
  /** The JSON with the array replaced by `[]`. */
  rest: string;
  array: MessageArray;
  /** How many of its first messages the earlier array held, byte for byte. */
  shared: number;
}

/**
 * Where the value at `path` (keys from the payload's root object) starts and ends, `read` finding
 * its end from its start (throwing Unexpected on what it does not take); undefined when the JSON
 * is not as expected (the caller parses it whole).
 */
function findValue(bytes: Buffer, path: readonly string[], read: (at: number) => number): { start: number; end: number } | undefined {
  if (path.length === 0) return undefined;
  let found: { start: number; end: number } | undefined;
  try {
    const end = walkObject(bytes, skipSpace(bytes, 0), path, (start) => {
      found = { start, end: read(start) };
      return found.end;
    });
    if (skipSpace(bytes, end) !== bytes.length) return undefined;
  } catch {
    // Unexpected structure, or a key JSON.parse refuses: the whole read names the problem.
    return undefined;
  }
  return found;
}

/** The JSON without the bytes from start to end, `stand` in their place. */
function around(bytes: Buffer, { start, end }: { start: number; end: number }, stand: string): string {
  return `${bytes.toString('utf8', 0, start)}${stand}${bytes.toString('utf8', end)}`;
}

/**
 * Finds the array at `path` in the JSON bytes, and the bytes of each of its items; undefined
 * when the JSON is not as expected. `earlier` is the array this scan returned for the previous
 * request, if any.
 */
export function cutArray(bytes: Buffer, path: readonly string[], earlier?: MessageArray): CutArray | undefined {
  let array: Scanned | undefined;
  const found = findValue(bytes, path, (at) => {
    if (bytes[at] !== OPEN_ARRAY) throw new Unexpected();
    array = scanArray(bytes, at, earlier);
    return array.end;
  });
  if (!found || !array) return undefined;
  return {
    rest: around(bytes, found, '[]'),
    array: { bytes: bytes.subarray(found.start, found.end), spans: array.spans },
    shared: array.shared,
  };
}

/** A payload's JSON with one value cut out: the text around it (`""` in its place), and the value's bytes. */
export interface CutValue {
  rest: string;
  value: Buffer;
}

/** Finds the value at `path` in the JSON bytes; undefined when there is none or the JSON is not as expected. */
export function cutValue(bytes: Buffer, path: readonly string[]): CutValue | undefined {
  const found = findValue(bytes, path, (at) => skipValue(bytes, at));
  return found && { rest: around(bytes, found, '""'), value: bytes.subarray(found.start, found.end) };
}
