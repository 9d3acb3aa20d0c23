/**
 * Streams the events of a history JSON file (`{"events": [ {...}, ... ], ...}`, the API's
 * `{"history": {"events": [...]}, ...}`, or a bare array `[ {...}, ... ]`) one at a time,
 * so that a history larger than a JavaScript string (Temporal allows 50-500 MiB; its JSON with
 * base64 payloads is larger still) is read in bounded memory: peak is one chunk plus one event.
 *
 * A byte-level scanner tracks depth and strings only; each event's text is then parsed by
 * JSON.parse, which validates it. Structural characters are ASCII, so UTF-8 needs no decoding.
 * A large `data` string (a payload's base64, most of a history's bytes) is cut out of the text
 * JSON.parse reads and arrives as a Base64Text of the file's bytes: never a JavaScript string,
 * decoded only if a check reads that payload.
 */
import { isAscii } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Base64Text } from './base64-text.ts';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isSpace, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-bytes.ts';

/** `data` strings from this many bytes on are cut out of the parsed text (smaller ones cost nothing to parse). */
const CUT_DATA_BYTES = 1024;
const DATA_KEY = Buffer.from('data');
/** Stands in a cut string's place: `"\u0000<n>"`, the n-th cut of the event (base64 never holds a NUL). */
const CUT_MARK = '\\u0000';

/** Why a file is not a history, with the byte offset where that showed. */
export class HistoryFileShapeError extends Error {}

/**
 * Yields the parsed events of the file (gunzipped when its name ends in .gz); throws
 * HistoryFileShapeError. A `data` string of `cutDataBytes` or more, ASCII and without escapes,
 * arrives as a Base64Text.
 */
export async function* streamHistoryEvents(path: string, chunkBytes = 4 << 20, cutDataBytes = CUT_DATA_BYTES): AsyncGenerator<unknown> {
  const scanner = new EventScanner(cutDataBytes);
  const file = createReadStream(path, { highWaterMark: chunkBytes });
  const bytes = path.endsWith('.gz') ? pipeline(file, createGunzip({ chunkSize: chunkBytes }), () => {}) : file;
  let offset = 0;
  for await (const chunk of bytes) {
    yield* scanner.push(chunk as Buffer, offset);
    offset += (chunk as Buffer).length;
  }
  scanner.end(offset);
}

/**
 * depth counts open objects and arrays (the root is depth 1). The events array is the root
 * itself, the value of the root's "events" key, or of "events" in the root's "history" object;
 * each event is an object directly inside it, captured until depth returns to the array's.
 *
 * Inside an event the scanner follows keys just enough to know a string that is the value of a
 * `data` key: that string's bytes become a segment of their own, cut out when the string closes
 * long, ASCII and unescaped.
 */
class EventScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The key being read at depth 1 or 2, and the last complete key at each of those depths. */
  private keyBytes: number[] | null = null;
  private readonly keys: string[] = [];
  /** Per depth 1 and 2: an object whose keys can lead to the events array, and whether its next string is a key. */
  private readonly tracksKeys: boolean[] = [];
  private readonly expectKey: boolean[] = [];
  /** The depth of the events array once it is open; 0 before and after. */
  private eventsDepth = 0;
  private sawEvents = false;
  private rootClosed = false;
  /** The event being captured, in order: runs of its bytes, and the data strings cut out of it. */
  private eventParts: (Buffer | Base64Text)[] | null = null;
  private cuts = 0;
  private eventStart = 0;
  /** The file offset of the event being captured, to place a parse error in the file. */
  private eventOffset = 0;
  private eventCount = 0;
  /** Inside an event: whether each open depth is an object, and whether the next string there is a key. */
  private readonly isObject: boolean[] = [];
  private eventExpectKey = false;
  /** The key being read: its start in the chunk, and its first bytes from earlier chunks. */
  private keyStart = 0;
  private keyCarry: Buffer | undefined;
  private readingKey = false;
  private afterDataKey = false;
  /** The data value being read: the index in eventParts where its bytes begin, and whether it held an escape. */
  private dataPart = -1;
  private dataEscaped = false;

  private backslashAt = -1;

  constructor(private readonly cutDataBytes: number) {}

  *push(chunk: Buffer, offset: number): Generator<unknown> {
    // The next backslash in the chunk (2^32 - 1 when none): found once, not searched for in every string.
    this.backslashAt = -1;
    for (let i = 0; i < chunk.length; i++) {
      if (this.inString && !this.escaped && !this.keyBytes) {
        // Fast path through string contents (base64 payloads are most of the file): jump to the
        // closing quote unless a backslash comes first, which the byte path below handles.
        const quote = chunk.indexOf(QUOTE, i);
        if (this.backslashAt < i) this.backslashAt = chunk.indexOf(BACKSLASH, i) >>> 0;
        if (this.backslashAt < (quote < 0 ? chunk.length : quote)) i = this.backslashAt;
        else if (quote < 0) break;
        else {
          i = quote;
          this.closeString(chunk, i);
          continue;
        }
      }
      const byte = chunk[i] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) {
          this.escaped = true;
          this.dataEscaped = true;
        } else if (byte === QUOTE) {
          this.closeString(chunk, i);
          continue;
        }
        // Keys are compared raw (escapes and all): "events" and "history" have none.
        this.keyBytes?.push(byte);
        continue;
      }
      if (isSpace(byte)) continue;
      if (this.rootClosed) this.fail('unexpected content after the history object', offset + i);
      if (this.depth === 0 && byte !== OPEN_OBJECT && byte !== OPEN_ARRAY) {
        this.fail('not a JSON object with an "events" array, nor an array of events', offset + i);
      }
      switch (byte) {
        case QUOTE:
          this.inString = true;
          if (this.depth <= 2 && this.tracksKeys[this.depth] && this.expectKey[this.depth]) this.keyBytes = [];
          if (this.eventParts) this.openEventString(chunk, i);
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          this.open(byte, offset + i, i);
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY: {
          const event = this.close(offset + i, chunk, i);
          if (event !== undefined) yield event;
          break;
        }
        case COMMA:
          if (this.depth <= 2 && this.tracksKeys[this.depth]) this.expectKey[this.depth] = true;
          this.eventExpectKey = this.isObject[this.depth] === true;
          break;
        case COLON:
          if (this.depth <= 2 && this.tracksKeys[this.depth]) this.expectKey[this.depth] = false;
          this.eventExpectKey = false;
          break;
        default:
          if (this.eventsDepth > 0 && this.depth === this.eventsDepth) this.fail(`events[${this.eventCount}] is not an object`, offset + i);
          this.afterDataKey = false;
      }
    }
    if (this.eventParts) {
      this.eventParts.push(chunk.subarray(this.eventStart));
      this.eventStart = 0;
    }
    if (this.readingKey) {
      // The key goes on in the next chunk: carry its first bytes (5 tell "data" from anything else).
      this.keyCarry = Buffer.concat([this.keyCarry ?? Buffer.alloc(0), chunk.subarray(this.keyStart)]).subarray(0, 5);
      this.keyStart = 0;
    }
  }

  end(offset: number): void {
    if (this.eventParts) this.fail(`the file ends inside event #${this.eventCount + 1}`, offset);
    if (!this.rootClosed) this.fail('the file ends before the history object closes', offset);
    if (!this.sawEvents) this.fail('no "events" array', offset);
  }

  /** A string opens inside an event at the quote at i: a key, the value of a data key, or another. */
  private openEventString(chunk: Buffer, i: number): void {
    if (this.isObject[this.depth] && this.eventExpectKey) {
      this.readingKey = true;
      this.keyStart = i + 1;
    } else if (this.afterDataKey) {
      // The value's bytes start a part of their own, so that the whole part can be cut out.
      (this.eventParts as (Buffer | Base64Text)[]).push(chunk.subarray(this.eventStart, i + 1));
      this.eventStart = i + 1;
      this.dataPart = (this.eventParts as (Buffer | Base64Text)[]).length;
      this.dataEscaped = false;
    }
    this.afterDataKey = false;
  }

  private closeString(chunk: Buffer, i: number): void {
    this.inString = false;
    if (this.keyBytes) {
      this.keys[this.depth] = Buffer.from(this.keyBytes).toString('utf8');
      this.keyBytes = null;
    }
    if (this.readingKey) {
      this.readingKey = false;
      // An event has dozens of keys: most are told from "data" by their length, without a view of their bytes.
      this.afterDataKey = this.keyCarry
        ? Buffer.concat([this.keyCarry, chunk.subarray(this.keyStart, i)]).equals(DATA_KEY)
        : i - this.keyStart === DATA_KEY.length && chunk.compare(DATA_KEY, 0, DATA_KEY.length, this.keyStart, i) === 0;
      this.keyCarry = undefined;
    } else if (this.dataPart >= 0) this.cutData(chunk, i);
  }

  /** The data value closing at the quote at i: cut out when it is long, ASCII and has no escape. */
  private cutData(chunk: Buffer, i: number): void {
    const parts = this.eventParts as (Buffer | Base64Text)[];
    const first = this.dataPart;
    this.dataPart = -1;
    parts.push(chunk.subarray(this.eventStart, i));
    this.eventStart = i;
    const pieces = parts.slice(first) as Buffer[];
    const ascii = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
    if (this.dataEscaped || ascii.length < this.cutDataBytes || !isAscii(ascii)) return;
    parts.length = first;
    parts.push(new Base64Text(ascii));
    this.cuts++;
  }

  /** Whether the value opening at the current depth is the events array's. */
  private opensEvents(byte: number): boolean {
    if (this.sawEvents) return false;
    if (this.depth === 0) return byte === OPEN_ARRAY;
    if (this.depth === 1) return this.keys[1] === 'events';
    return this.depth === 2 && this.keys[1] === 'history' && this.keys[2] === 'events';
  }

  private open(byte: number, at: number, i: number): void {
    if (this.opensEvents(byte)) {
      if (byte !== OPEN_ARRAY) this.fail('"events" is not an array', at);
      this.eventsDepth = this.depth + 1;
      this.sawEvents = true;
    } else if (this.eventsDepth > 0 && this.depth === this.eventsDepth) {
      if (byte !== OPEN_OBJECT) this.fail(`events[${this.eventCount}] is not an object`, at);
      this.eventParts = [];
      this.cuts = 0;
      this.eventStart = i;
      this.eventOffset = at;
    }
    this.depth++;
    // Only objects at depths 1 and 2 have keys that can lead to the events array.
    if (this.depth <= 2) {
      this.tracksKeys[this.depth] = byte === OPEN_OBJECT && (this.depth === 1 || this.keys[1] === 'history');
      this.expectKey[this.depth] = true;
    }
    this.isObject[this.depth] = byte === OPEN_OBJECT;
    this.eventExpectKey = byte === OPEN_OBJECT;
    this.afterDataKey = false;
  }

  private close(at: number, chunk: Buffer, i: number): unknown {
    this.depth--;
    if (this.depth < 0) this.fail('unbalanced brackets', at);
    if (this.depth === 0) this.rootClosed = true;
    if (this.eventsDepth > 0 && this.depth === this.eventsDepth - 1) this.eventsDepth = 0;
    this.afterDataKey = false;
    if (!(this.eventsDepth > 0 && this.depth === this.eventsDepth && this.eventParts)) return undefined;
    const parts = this.eventParts;
    parts.push(chunk.subarray(this.eventStart, i + 1));
    this.eventParts = null;
    this.eventCount++;
    if (this.cuts === 0) return this.parse(Buffer.concat(parts as Buffer[]).toString('utf8'), at);
    const cut: Base64Text[] = [];
    const skeleton = parts.map((part) => (part instanceof Base64Text ? Buffer.from(`${CUT_MARK}${cut.push(part) - 1}`) : part));
    let event: unknown;
    try {
      event = JSON.parse(Buffer.concat(skeleton).toString('utf8'), (key, value) =>
        key === 'data' && typeof value === 'string' && value.charCodeAt(0) === 0 ? (cut[Number(value.slice(1))] ?? value) : value,
      );
    } catch {
      // Name the error as the whole event's text does.
      return this.parse(Buffer.concat(parts.map((part) => (part instanceof Base64Text ? part.ascii : part))).toString('utf8'), at);
    }
    return event;
  }

  /** Parses an event's text; `at`, the offset of its closing brace, places an error V8 gives no position for. */
  private parse(text: string, at: number): unknown {
    try {
      return JSON.parse(text);
    } catch (error) {
      const message = (error as Error).message;
      // V8 names the position in characters of the event's text; the file offset is in bytes.
      const position = /at position (\d+)/.exec(message)?.[1];
      const where = position === undefined ? at : this.eventOffset + Buffer.byteLength(text.slice(0, Number(position)));
      this.fail(`event #${this.eventCount} is not valid JSON (${message.replace(/ in JSON at position \d+.*$/, '')})`, where);
    }
  }

  private fail(problem: string, at: number): never {
    throw new HistoryFileShapeError(`${problem} (byte ${at})`);
  }
}
