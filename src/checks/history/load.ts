/**
 * Loading a history in any of its three forms into the normalized model (files may be gzipped):
 * - SDK objects (`temporal.api.history.v1.IHistory`, e.g. `await handle.fetchHistory()`);
 * - the JSON of `fetchHistory()` (`JSON.stringify` of it, or `historyToJSON`);
 * - the JSON of `temporal workflow show --output json` (proto3 JSON).
 * Files are streamed event by event (see event-stream.ts), so their size is bounded by disk only.
 */
import { stat } from 'node:fs/promises';
import type { temporal } from '@temporalio/proto';
import { DEFAULT_KERNEL_MAPPING, type KernelMapping } from '../mapping.ts';
import { HistoryLoadError } from './errors.ts';
import { HistoryFileShapeError, streamHistoryEvents } from './event-stream.ts';
import type { LoadedHistory } from './model.ts';
import { HistoryNormalizer } from './normalize.ts';
import { isRecord } from './proto-values.ts';

/** A history as the SDK returns it, as JSON text or bytes, or as parsed JSON. */
export type HistoryInput = temporal.api.history.v1.IHistory | string | Uint8Array | { events: unknown[] };

export interface LoadOptions {
  /** Names the history in errors and evidence (default "history"). */
  source?: string;
  /** How to read the kernel's histories (default: our kernel). */
  mapping?: KernelMapping;
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
  if (!isRecord(value) || !Array.isArray(value.events)) {
    throw new HistoryLoadError(source, 'not a history: expected an object with an "events" array');
  }
  const normalizer = new HistoryNormalizer(source, options.mapping ?? DEFAULT_KERNEL_MAPPING);
  for (const event of value.events) normalizer.add(event);
  return normalizer.finish();
}

export async function loadHistoryFile(path: string, options: Omit<LoadOptions, 'source'> = {}): Promise<LoadedHistory> {
  try {
    await stat(path);
  } catch (error) {
    throw new HistoryLoadError(path, `cannot read the file (${(error as NodeJS.ErrnoException).code})`);
  }
  const normalizer = new HistoryNormalizer(path, options.mapping ?? DEFAULT_KERNEL_MAPPING);
  try {
    for await (const event of streamHistoryEvents(path)) normalizer.add(event);
  } catch (error) {
    if (error instanceof HistoryFileShapeError) throw new HistoryLoadError(path, `not a history: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_')) throw new HistoryLoadError(path, `not gzip data (${(error as Error).message})`);
    throw error;
  }
  return normalizer.finish();
}
