/**
 * The run a request to the mock belongs to, told from its path and body as the handlers tell it
 * (run-identity.ts over the parsed request): what a fleet of replicas routes each run's requests
 * to one owner by (mocks/server/run-owner.ts). Null when no run can be told.
 */
import { readRunMarker } from '../../src/contract/run-marker.ts';
import { readCompactRequest } from './responses-compact.ts';
import { compactRun, identify, windowedRun } from './run-identity.ts';
import { ownerOf } from './sandbox-handlers.ts';
import { WIRE_FORMATS } from './wire-formats.ts';

/** Where a request went: a path under the model base URL (`/chat/completions`), or a sandbox tool. */
export type RequestRoute = { api: 'model'; path: string } | { api: 'sandbox' };

export function runOfRequest(route: RequestRoute, text: string, compactionModels: readonly string[]): string | null {
  if (route.api === 'sandbox') return ownerOf(text).runId;
  const format = WIRE_FORMATS.find((f) => f.paths.includes(route.path));
  if (!format && route.path !== '/responses/compact') return null;
  try {
    return format ? identify(windowedRun(format.read(text, compactionModels))).runId : compactRun(readCompactRequest(text));
  } catch {
    // A body the handlers refuse is recorded against the run its marker names, if any.
    return readRunMarker(text);
  }
}
