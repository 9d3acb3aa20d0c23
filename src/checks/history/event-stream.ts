/**
 * Streams the events of a history JSON file (`{"events": [ {...}, ... ], ...}`, or the API's
 * `{"history": {"events": [...]}, ...}`) one at a time,
 * so that a history larger than a JavaScript string (Temporal allows 50-500 MiB; its JSON with
 * base64 payloads is larger still) is read in bounded memory: peak is one chunk plus one event.
 *
 * A byte-level scanner tracks depth and strings only; each event's text is then parsed by
 * JSON.parse, which validates it. Structural characters are ASCII, so UTF-8 needs no decoding.
 */
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Why a file is not a history, with the byte offset where that showed. */
export class HistoryFileShapeError extends Error {}

/** Yields the parsed events of the file (gunzipped when its name ends in .gz); throws HistoryFileShapeError. */
export async function* streamHistoryEvents(path: string, chunkBytes = 1 << 20): AsyncGenerator<unknown> {
  const scanner = new EventScanner();
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
 * depth counts open objects and arrays (the root object is depth 1). The events array is the
 * value of the root's "events" key, or of "events" in the root's "history" object; each event is
 * an object directly inside it, captured until depth returns to the array's.
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
  private eventParts: Buffer[] | null = null;
  private eventStart = 0;
  /** The file offset of the event being captured, to place a parse error in the file. */
  private eventOffset = 0;
  private eventCount = 0;

  *push(chunk: Buffer, offset: number): Generator<unknown> {
    for (let i = 0; i < chunk.length; i++) {
      if (this.inString && !this.escaped && !this.keyBytes) {
        // Fast path through string contents (base64 payloads are most of the file): jump to the
        // closing quote unless a backslash comes first, which the byte path below handles.
        const quote = chunk.indexOf(QUOTE, i);
        const backslash = chunk.subarray(i, quote < 0 ? chunk.length : quote).indexOf(BACKSLASH);
        if (backslash >= 0) i += backslash;
        else if (quote < 0) break;
        else {
          this.inString = false;
          i = quote;
          continue;
        }
      }
      const byte = chunk[i] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.closeString();
          continue;
        }
        // Keys are compared raw (escapes and all): "events" and "history" have none.
        this.keyBytes?.push(byte);
        continue;
      }
      if (isSpace(byte)) continue;
      if (this.rootClosed) this.fail('unexpected content after the history object', offset + i);
      if (this.depth === 0 && byte !== OPEN_OBJECT) this.fail('not a JSON object with an "events" array', offset + i);
      switch (byte) {
        case QUOTE:
          this.inString = true;
          if (this.depth <= 2 && this.tracksKeys[this.depth] && this.expectKey[this.depth]) this.keyBytes = [];
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
          break;
        case COLON:
          if (this.depth <= 2 && this.tracksKeys[this.depth]) this.expectKey[this.depth] = false;
          break;
        default:
          if (this.eventsDepth > 0 && this.depth === this.eventsDepth) this.fail(`events[${this.eventCount}] is not an object`, offset + i);
      }
    }
    if (this.eventParts) {
      this.eventParts.push(chunk.subarray(this.eventStart));
      this.eventStart = 0;
    }
  }

  end(offset: number): void {
    if (this.eventParts) this.fail(`the file ends inside event #${this.eventCount + 1}`, offset);
    if (!this.rootClosed) this.fail('the file ends before the history object closes', offset);
    if (!this.sawEvents) this.fail('no "events" array', offset);
  }

  private closeString(): void {
    this.inString = false;
    if (this.keyBytes) {
      this.keys[this.depth] = Buffer.from(this.keyBytes).toString('utf8');
      this.keyBytes = null;
    }
  }

  /** Whether the value opening at the current depth is the events array's. */
  private opensEvents(): boolean {
    if (this.sawEvents) return false;
    if (this.depth === 1) return this.keys[1] === 'events';
    return this.depth === 2 && this.keys[1] === 'history' && this.keys[2] === 'events';
  }

  private open(byte: number, at: number, i: number): void {
    if (this.opensEvents()) {
      if (byte !== OPEN_ARRAY) this.fail('"events" is not an array', at);
      this.eventsDepth = this.depth + 1;
      this.sawEvents = true;
    } else if (this.eventsDepth > 0 && this.depth === this.eventsDepth) {
      if (byte !== OPEN_OBJECT) this.fail(`events[${this.eventCount}] is not an object`, at);
      this.eventParts = [];
      this.eventStart = i;
      this.eventOffset = at;
    }
    this.depth++;
    // Only objects at depths 1 and 2 have keys that can lead to the events array.
    if (this.depth <= 2) {
      this.tracksKeys[this.depth] = byte === OPEN_OBJECT && (this.depth === 1 || this.keys[1] === 'history');
      this.expectKey[this.depth] = true;
    }
  }

  private close(at: number, chunk: Buffer, i: number): unknown {
    this.depth--;
    if (this.depth < 0) this.fail('unbalanced brackets', at);
    if (this.depth === 0) this.rootClosed = true;
    if (this.eventsDepth > 0 && this.depth === this.eventsDepth - 1) this.eventsDepth = 0;
    if (!(this.eventsDepth > 0 && this.depth === this.eventsDepth && this.eventParts)) return undefined;
    this.eventParts.push(chunk.subarray(this.eventStart, i + 1));
    const text = Buffer.concat(this.eventParts).toString('utf8');
    this.eventParts = null;
    this.eventCount++;
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
