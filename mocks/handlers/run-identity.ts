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
  const marked = request.runId ?? readRunMarker(request.firstUserText);
  // A compaction request's turn is the kernel's to say; its digest is no conversation.
  if (request.purpose === 'compaction') return { runId: marked, turn: request.turn };
  return {
    runId: marked ?? `anonymous-${hash32(request.firstUserText).toString(16)}`,
    turn: request.turn ?? 1 + request.answers,
  };
}
