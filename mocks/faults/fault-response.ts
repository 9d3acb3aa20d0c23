/**
 * Turns a handler's answer into the HTTP response a fault calls for: an error status, a delay,
 * a hang, a dropped connection, a broken body or a cut stream. Card faults change the answer
 * itself and are applied by the compaction handler before this. The fault decides what happens
 * (and the Retry-After header); the wire format words an error's status and body.
 */
import { HttpResponse } from 'msw';
import type { PickedFault } from './fault-picker.ts';
import { type FaultSpec, retryAfterSecondsOf } from './fault-profile.ts';

export interface Answer {
  status: number;
  contentType: string;
  body: string;
  /** Server-sent events: the body split into events, sent one by one. */
  events?: string[];
  /** Headers of the provider's own (Anthropic's rate-limit headers); the fault's Retry-After is set apart. */
  headers?: Record<string, string>;
}

/** Told how the request ended: the status sent (0 for none) and the body bytes sent. */
export type Outcome = (status: number, responseBytes: number) => void;

/** Longer than any HTTP timeout of the kernel (100 s for the model), so that the client gives up first. */
const DEFAULT_HANG_MS = 120_000;

/** The faults answered with an error status; each wire format words them in its own shape. */
export type ErrorFault = Extract<
  FaultSpec,
  { kind: 'http-429' | 'http-500' | 'http-503' | 'overloaded' | 'timeout' | 'context-length-exceeded' }
>;

/** An error fault as the API words it: status and body. */
export type ErrorWording = (fault: ErrorFault) => Answer;

export async function respond(
  answer: () => Answer,
  picked: PickedFault | null,
  signal: AbortSignal,
  outcome: Outcome,
  wording: ErrorWording,
): Promise<Response> {
  const fault = picked?.fault;
  switch (fault?.kind) {
    case 'http-429':
    case 'http-503':
    case 'overloaded': {
      const seconds = retryAfterSecondsOf(fault);
      return send(wording(fault), outcome, seconds === undefined ? {} : { 'retry-after': String(seconds) });
    }
    case 'http-500':
    case 'context-length-exceeded':
      return send(wording(fault), outcome);
    case 'reset':
      outcome(0, 0);
      return HttpResponse.error();
    case 'timeout': {
      await wait(fault.maxHangMs ?? DEFAULT_HANG_MS, signal);
      if (signal.aborted) return gone(outcome);
      return send(wording(fault), outcome);
    }
    case 'latency': {
      const jitter = (fault.jitterMs ?? 0) * (2 * (picked?.draw ?? 0.5) - 1);
      await wait(Math.max(0, Math.round(fault.ms + jitter)), signal);
      if (signal.aborted) return gone(outcome);
      return send(answer(), outcome);
    }
    case 'malformed-json': {
      const body = answer().body;
      return send(
        {
          status: 200,
          contentType: 'application/json',
          body: `${body.slice(0, body.length >> 1)}, "choices": ]`,
        },
        outcome,
      );
    }
    case 'truncated-stream':
      return send(truncated(answer()), outcome);
    default:
      return send(answer(), outcome);
  }
}

function gone(outcome: Outcome): Response {
  outcome(0, 0);
  return HttpResponse.error();
}

/** Half of the body; a stream keeps its first events and stops inside the next one. */
function truncated(answer: Answer): Answer {
  const half = answer.body.length >> 1;
  if (!answer.events) return { ...answer, body: answer.body.slice(0, half) };
  const events: string[] = [];
  let size = 0;
  for (const event of answer.events) {
    if (size + event.length > half) {
      events.push(event.slice(0, half - size));
      break;
    }
    events.push(event);
    size += event.length;
  }
  return { ...answer, body: events.join(''), events };
}

function send(answer: Answer, outcome: Outcome, headers: Record<string, string> = {}): Response {
  outcome(answer.status, Buffer.byteLength(answer.body));
  const init = {
    status: answer.status,
    headers: { 'content-type': answer.contentType, ...answer.headers, ...headers },
  };
  if (!answer.events) return new HttpResponse(answer.body, init);
  const encoder = new TextEncoder();
  const events = answer.events;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = events.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
  });
  return new HttpResponse(stream, init);
}

/** Resolves after `ms`, or as soon as the client aborts. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
