/**
 * One JSON POST with the failure classification the retry policies rely on: 429, 5xx, network
 * errors and timeouts are retryable (Retry-After becomes the next retry delay, within bounds);
 * any other 4xx is final; a 2xx whose body is not JSON is retryable as a malformed response.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { FAILURE_TYPE } from '../../contract/failure-types.ts';

/** Retry-After is honoured up to this; a server asking for longer gets the policy's backoff. */
export const MAX_RETRY_AFTER_MS = 30_000;

export interface PostJsonOptions {
  fetch: typeof fetch;
  url: string;
  body: unknown;
  timeoutMs: number;
  headers?: Record<string, string>;
  /** Names the other side in error messages: "model", "compaction model", "sandbox". */
  peer: string;
}

export async function postJson(options: PostJsonOptions): Promise<unknown> {
  let response: Response;
  try {
    response = await options.fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(options.body),
      signal: requestSignal(options.timeoutMs),
    });
  } catch (error) {
    const cancellation = Context.current().cancellationSignal;
    if (cancellation.aborted) throw cancellation.reason;
    const reason = isTimeout(error) ? `no answer within ${options.timeoutMs} ms` : messageOf(error);
    throw ApplicationFailure.create({
      type: FAILURE_TYPE.httpUnavailable,
      message: `${options.peer} unreachable at ${options.url}: ${reason}`,
    });
  }
  const text = await response.text();
  if (!response.ok) throw statusFailure(options, response, text);
  try {
    return JSON.parse(text);
  } catch {
    throw ApplicationFailure.create({
      type: FAILURE_TYPE.malformedResponse,
      message: `${options.peer} answered ${response.status} with a body that is not JSON: ${text.slice(0, 120)}`,
    });
  }
}

function statusFailure(options: PostJsonOptions, response: Response, body: string): ApplicationFailure {
  const message = `${options.peer} answered HTTP ${response.status} at ${options.url}: ${body.slice(0, 200)}`;
  if (response.status === 429 || response.status >= 500) {
    const delayMs = retryAfterMs(response.headers.get('retry-after'), Date.now());
    return ApplicationFailure.create({
      type: FAILURE_TYPE.httpUnavailable,
      message,
      // A zero delay reads to Temporal as no retry at all: "Retry-After: 0" falls back to the policy's backoff.
      ...(delayMs === undefined || delayMs <= 0 ? {} : { nextRetryDelay: delayMs }),
    });
  }
  return ApplicationFailure.create({
    type: FAILURE_TYPE.httpRejected,
    message,
    nonRetryable: true,
  });
}

/** Retry-After in seconds or as an HTTP date, clamped to [0, MAX_RETRY_AFTER_MS]; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  const ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value) - nowMs;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(Math.max(Math.round(ms), 0), MAX_RETRY_AFTER_MS);
}

/** The HTTP timeout, or the activity's cancellation, whichever comes first. */
function requestSignal(timeoutMs: number): AbortSignal {
  return AbortSignal.any([AbortSignal.timeout(timeoutMs), Context.current().cancellationSignal]);
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
