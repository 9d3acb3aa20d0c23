/**
 * Loading a history in any of its three forms into the normalized model (files may be gzipped):
 * - SDK objects (`temporal.api.history.v1.IHistory`, e.g. `await handle.fetchHistory()`);
 * - the JSON of `fetchHistory()` (`JSON.stringify` of it, or `historyToJSON`);
 * - the JSON of `temporal workflow show --output json` (proto3 JSON, either enum spelling), bare
 *   or in the API's `{ history: { events } }` wrapper, oldest or newest event first;
 * - a bare array of events, `[ {event}, ... ]`.
 * Files are streamed event by event (see event-stream.ts), so their size is bounded by disk only.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { temporal } from '@temporalio/proto';
import { DEFAULT_KERNEL_MAPPING, type KernelMapping } from '../mapping.ts';
import { HistoryLoadError } from './errors.ts';
import { HistoryFileShapeError, streamHistoryEvents } from './event-stream.ts';
import type { StoredPayloads } from './external-storage.ts';
import type { LoadedHistory } from './model.ts';
import { type EventOrder, HistoryNormalizer, rawEventId, resultScheduledEventId, scheduledActivityType } from './normalize.ts';
import { isRecord } from './proto-values.ts';

/** A history as the SDK returns it, as JSON text or bytes, or as parsed JSON. */
export type HistoryInput =
  | temporal.api.history.v1.IHistory
  | string
  | Uint8Array
  | { events: unknown[] }
  | { history: { events: unknown[] } }
  | unknown[];

export interface LoadOptions {
  /** Names the history in errors and evidence (default "history"). */
  source?: string;
  /** How to read the kernel's histories (default: our kernel). */
  mapping?: KernelMapping;
  /**
   * The stored payloads of the history's External Storage references (external-storage.ts), read
   * in their place; without them a reference's contents are not read (the checks say so).
   */
  storedPayloads?: StoredPayloads;
}

/** The events of a history, of the API's `{ history: { events } }` wrapper, or a bare array of them. */
function eventsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.events)) return value.events;
  return isRecord(value.history) && Array.isArray(value.history.events) ? value.history.events : undefined;
}

/** Newest first: the first event is not event 1 and the next one is the event before it. */
function newestFirst(first: number | undefined, second: number | undefined): boolean {
  return first !== undefined && second !== undefined && first > 1 && second === first - 1;
}

export function loadHistory(input: HistoryInput, options: LoadOptions = {}): LoadedHistory {
  const source = options.source ?? 'history';
  let value: unknown = input;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new HistoryLoadError(source, `not valid JSON (${(error as Error).message})`);
    }
  }
  const events = eventsOf(value);
  if (!events) throw new HistoryLoadError(source, 'not a history: expected an object with an "events" array, or an array of events');
  const normalizer = new HistoryNormalizer(source, options.mapping ?? DEFAULT_KERNEL_MAPPING, undefined, options.storedPayloads);
  const reversed = newestFirst(rawEventId(events[0]), rawEventId(events[1]));
  for (let i = 0; i < events.length; i++) normalizer.add(events[reversed ? events.length - 1 - i : i]);
  return normalizer.finish();
}

/**
 * Loads a history event by event, oldest first (as the API's pages bring them), so that the
 * caller never holds it whole: `add` each event, then `finish`.
 */
export function historyLoader(options: LoadOptions = {}): Pick<HistoryNormalizer, 'add' | 'finish'> {
  return new HistoryNormalizer(options.source ?? 'history', options.mapping ?? DEFAULT_KERNEL_MAPPING, undefined, options.storedPayloads);
}

/** Reads the file's events through `each`; a file that is not a history becomes a HistoryLoadError. */
async function readEvents(path: string, each: (event: unknown) => boolean | undefined): Promise<void> {
  try {
    for await (const event of streamHistoryEvents(path)) if (each(event) === false) break;
  } catch (error) {
    if (error instanceof HistoryFileShapeError) throw new HistoryLoadError(path, `not a history: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_')) throw new HistoryLoadError(path, `not gzip data (${(error as Error).message})`);
    throw error;
  }
}

/** What the one pass leaves to the three: a file it cannot judge exactly as they do (an error, a result without its scheduled event). */
class ReadAgain extends Error {}

/**
 * One pass over a file: its first two events tell the order. Newest first, a result comes before
 * the event that scheduled it (whose activity type decodes the result): the events from a result
 * on are held, a few of them, until every result held has its scheduled event, then normalized
 * in their order. Every event thus meets the normalizer as in the three passes, which judge
 * whatever this pass does not expect (any error, a scheduled event missing), so that the record
 * and the error are the same either way.
 */
class OnePass {
  private readonly head: unknown[] = [];
  private normalizer?: HistoryNormalizer;
  private descending = false;
  /** Newest first: the activity type of every scheduled event read so far, which the normalizer reads. */
  private readonly scheduledTypes = new Map<number, string>();
  private readonly held: unknown[] = [];
  /** The scheduled events the held results name, not read yet. */
  private readonly awaited = new Set<number>();

  constructor(
    private readonly path: string,
    private readonly mapping: KernelMapping,
    private readonly stored?: StoredPayloads,
  ) {}

  add(event: unknown): void {
    if (this.normalizer) this.next(event);
    else if (this.head.push(event) === 2) this.start();
  }

  finish(): LoadedHistory {
    if (!this.normalizer) this.start();
    if (this.held.length > 0) throw new ReadAgain();
    try {
      return (this.normalizer as HistoryNormalizer).finish();
    } catch (error) {
      throw error instanceof HistoryLoadError ? new ReadAgain() : error;
    }
  }

  private start(): void {
    this.descending = newestFirst(rawEventId(this.head[0]), rawEventId(this.head[1]));
    const order: EventOrder = this.descending ? { order: 'descending', scheduledTypes: this.scheduledTypes } : { order: 'ascending' };
    this.normalizer = new HistoryNormalizer(this.path, this.mapping, order, this.stored);
    for (const event of this.head.splice(0)) this.next(event);
  }

  private next(event: unknown): void {
    if (!this.descending) this.normalize(event);
    else if (this.hold(event)) for (const ready of this.held.splice(0)) this.normalize(ready);
  }

  /** Newest first: whether the events held (this one last) are ready for the normalizer. */
  private hold(event: unknown): boolean {
    const id = rawEventId(event);
    const last = this.held.length > 0 ? rawEventId(this.held.at(-1)) : undefined;
    if (id === undefined || (last !== undefined && id !== last - 1)) throw new ReadAgain();
    const type = scheduledActivityType(event);
    if (type !== undefined) {
      this.scheduledTypes.set(id, type);
      this.awaited.delete(id);
    }
    const names = resultScheduledEventId(event);
    if (names !== undefined && !this.scheduledTypes.has(names)) this.awaited.add(names);
    this.held.push(event);
    // Newest first, a scheduled event passed over is not in the file.
    if (this.awaited.size > 0 && id < Math.min(...this.awaited)) throw new ReadAgain();
    return this.awaited.size === 0;
  }

  private normalize(event: unknown): void {
    try {
      (this.normalizer as HistoryNormalizer).add(event);
    } catch (error) {
      throw error instanceof HistoryLoadError ? new ReadAgain() : error;
    }
  }
}

/** What a path is when it is not a regular file: 'a FIFO', 'a folder'...; undefined for a file. */
function notRegular(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * Streams the file once (OnePass); three times when that pass cannot judge it: the first two
 * events tell the order, then, newest first, a pass collects the activity types of the scheduled
 * events, which the results (read before them) need. Memory stays bounded either way.
 */
export async function loadHistoryFile(path: string, options: Omit<LoadOptions, 'source'> = {}): Promise<LoadedHistory> {
  let kind: string | undefined;
  try {
    kind = notRegular(await stat(path));
  } catch (error) {
    throw new HistoryLoadError(path, `cannot read the file (${(error as NodeJS.ErrnoException).code})`);
  }
  // Opening a FIFO waits for a writer, for ever; the file is read up to three times besides.
  if (kind) throw new HistoryLoadError(path, `not a regular file (${kind}): not read`);
  const mapping = options.mapping ?? DEFAULT_KERNEL_MAPPING;
  const pass = new OnePass(path, mapping, options.storedPayloads);
  try {
    await readEvents(path, (event) => {
      pass.add(event);
      return true;
    });
    return pass.finish();
  } catch (error) {
    if (!(error instanceof ReadAgain)) throw error;
  }
  return loadInThreePasses(path, mapping, options.storedPayloads);
}

async function loadInThreePasses(path: string, mapping: KernelMapping, stored?: StoredPayloads): Promise<LoadedHistory> {
  const firstIds: (number | undefined)[] = [];
  await readEvents(path, (event) => firstIds.push(rawEventId(event)) < 2);
  let order: EventOrder = { order: 'ascending' };
  if (newestFirst(firstIds[0], firstIds[1])) {
    const scheduledTypes = new Map<number, string>();
    await readEvents(path, (event) => {
      const type = scheduledActivityType(event);
      if (type !== undefined) scheduledTypes.set(rawEventId(event) as number, type);
      return true;
    });
    order = { order: 'descending', scheduledTypes };
  }
  const normalizer = new HistoryNormalizer(path, mapping, order, stored);
  await readEvents(path, (event) => {
    normalizer.add(event);
    return true;
  });
  return normalizer.finish();
}
