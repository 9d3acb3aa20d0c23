/** Decides, request by request, which fault of a profile applies (if any). */
import type { MockTarget } from '../recorder/mock-recorder.ts';
import { hash32 } from '../synthetic/random.ts';
import { type FaultProfile, type FaultSpec, type FaultWhen, parseFaultProfile, retryAfterSecondsOf, tokensOf } from './fault-profile.ts';

export interface FaultRequest {
  runId: string | null;
  turn: number | null;
  /** Tells apart several calls of one turn (the sandbox's tool call id). */
  callId?: string;
  /** The model request's size: a context window refuses only larger ones. */
  requestBytes?: number;
}

export interface PickedFault {
  fault: FaultSpec;
  /** A seeded number in [0, 1) for the fault's own draws (latency jitter, section to drop). */
  draw: number;
}

export class FaultPicker {
  private readonly profile: FaultProfile;
  private readonly calls = new Map<MockTarget, number>();
  private readonly attempts = new Map<string, number>();
  /** A run's requests to a target that came back before the Retry-After it was given: answered the same, as a real rate limit does. */
  private readonly closedUntil = new Map<string, { atMs: number; picked: PickedFault }>();

  constructor(
    profile: FaultProfile | undefined,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.profile = parseFaultProfile(profile);
  }

  /** Counts the request and returns the fault to inject, or null. */
  pick(target: MockTarget, request: FaultRequest): PickedFault | null {
    const call = (this.calls.get(target) ?? 0) + 1;
    this.calls.set(target, call);
    const key = [target, request.runId, request.turn, request.callId].join('|');
    const attempt = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempt);
    const window = `${target}|${request.runId}`;
    const closed = this.closedUntil.get(window);
    if (closed !== undefined && this.nowMs() < closed.atMs) return closed.picked;
    const picked = this.pickRule(target, request, call, attempt);
    const seconds = picked ? retryAfterSecondsOf(picked.fault) : undefined;
    if (picked && seconds !== undefined && request.runId !== null) {
      this.closedUntil.set(window, { atMs: this.nowMs() + seconds * 1000, picked });
    }
    return picked;
  }

  private pickRule(target: MockTarget, request: FaultRequest, call: number, attempt: number): PickedFault | null {
    const rules = this.profile[target] ?? [];
    for (const [index, rule] of rules.entries()) {
      if (!overflows(rule.fault, request)) continue;
      const draw = (salt: string) =>
        hash32(this.profile.seed ?? 0, target, request.runId ?? '', request.turn ?? 0, request.callId ?? '', attempt, index, salt) /
        4294967296;
      if (matches(rule.when, request, call, attempt, () => draw('when'))) return { fault: rule.fault, draw: draw('fault') };
    }
    return null;
  }
}

/** A context window refuses only the requests that do not fit in it; other faults need no size. */
function overflows(fault: FaultSpec, request: FaultRequest): boolean {
  if (fault.kind !== 'context-length-exceeded' || fault.maxTokens === undefined) return true;
  return tokensOf(request.requestBytes ?? 0) > fault.maxTokens;
}

function matches(when: FaultWhen | undefined, request: FaultRequest, call: number, attempt: number, draw: () => number): boolean {
  if (!when) return true;
  if (when.runIds && !(request.runId !== null && when.runIds.includes(request.runId))) return false;
  if (when.turns) {
    const turn = request.turn;
    if (turn === null) return false;
    if (Array.isArray(when.turns)) {
      if (!when.turns.includes(turn)) return false;
    } else if (turn < (when.turns.from ?? -Infinity) || turn > (when.turns.to ?? Infinity)) return false;
  }
  if (when.calls && !when.calls.includes(call)) return false;
  if (when.attempts && !when.attempts.includes(attempt)) return false;
  if (when.probability !== undefined && !(draw() < when.probability)) return false;
  return true;
}
