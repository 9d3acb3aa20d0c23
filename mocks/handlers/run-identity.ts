/**
 * Which run and turn a request belongs to when its metadata does not say (a foreign agent sends
 * none): the run the marker in the first user message names, or else an anonymous run hashed
 * from that message, so that each conversation gets its own plan; the turn is one more than the
 * model's answers so far. Needs no state: the same request is always the same run and turn.
 */
import { readRunMarker } from '../../src/contract/run-marker.ts';
import { hash32 } from '../synthetic/random.ts';
import type { ModelRequest } from './wire-format.ts';

export interface RunIdentity {
  runId: string | null;
  turn: number | null;
}

export function identify(request: ModelRequest): RunIdentity {
  const marked = claimedRun(request);
  // A compaction request's turn is the kernel's to say; its digest is no conversation.
  if (request.purpose === 'compaction') return { runId: marked, turn: request.turn };
  return {
    runId: marked ?? anonymousRun(request.firstUserText),
    turn: request.turn ?? 1 + request.answers,
  };
}

/** The run a request names itself: its metadata, or the marker in its first user message. */
export function claimedRun(request: ModelRequest): string | null {
  return request.runId ?? readRunMarker(request.firstUserText);
}

/** The run of a conversation that names none: a hash of its first user message. */
export function anonymousRun(firstUserText: string): string {
  return `anonymous-${hash32(firstUserText).toString(16)}`;
}

/** The request, naming the run its latest compaction names when it names none itself (past a compaction the marker may be gone). */
export function windowedRun<R extends ModelRequest & { window?: { latest: { run: string } | null } }>(request: R): R {
  const latest = request.window?.latest;
  return latest && claimedRun(request) === null ? { ...request, runId: latest.run } : request;
}

/** The run of a /responses/compact request: the one it names, its latest compaction's, or its anonymous run. */
export function compactRun(compact: { firstUserText: string; window: { latest: { run: string } | null } }): string {
  return readRunMarker(compact.firstUserText) ?? compact.window.latest?.run ?? anonymousRun(compact.firstUserText);
}
