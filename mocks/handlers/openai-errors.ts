/** Errors in OpenAI's shape: Chat Completions, Responses, and the sandbox mock's. */
import { tokensOf } from '../faults/fault-profile.ts';
import type { Answer, ErrorFault } from '../faults/fault-response.ts';
import { jsonAnswer, type ModelRequest } from './wire-format.ts';

export function openAIError(status: number, code: string, message: string, param?: string): Answer {
  return jsonAnswer(status, { error: { message, type: code, code, ...(param === undefined ? {} : { param }) } });
}

/** Bad input (400) or an unknown path (404); the message names the field, which `param` names too, as OpenAI's do. */
export function openAIInvalid(status: number, message: string): Answer {
  const param = /^body\.([^:\s]+): /.exec(message)?.[1] ?? null;
  return jsonAnswer(status, { error: { message, type: 'invalid_request_error', param, code: status } });
}

/** A body past the mock server's cap (413), as OpenAI's error object says it. */
export function openAITooLarge(message: string): Answer {
  return jsonAnswer(413, { error: { message, type: 'invalid_request_error', param: null, code: 'request_too_large' } });
}

/** Where OpenAI's API says the context overflowed: Chat Completions' `messages`, Responses' `input`. */
export type OverflowParam = 'messages' | 'input';

export function openAIFault(fault: ErrorFault, request?: ModelRequest, param: OverflowParam = 'messages'): Answer {
  switch (fault.kind) {
    case 'http-429':
      return openAIError(429, 'rate_limit_exceeded', 'Rate limit reached, retry later');
    case 'http-500':
      return openAIError(500, 'server_error', 'The server had an error processing the request');
    case 'http-503':
    case 'overloaded':
      return openAIError(503, 'overloaded', 'The engine is currently overloaded');
    case 'timeout':
      return openAIError(504, 'timeout', 'Upstream timed out');
    case 'context-length-exceeded': {
      const { tokens, max } = overflow(fault, request);
      const message =
        param === 'input'
          ? 'Your input exceeds the context window of this model. Please adjust your input and try again.'
          : `This model's maximum context length is ${max} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`;
      return jsonAnswer(400, { error: { message, type: 'invalid_request_error', param, code: 'context_length_exceeded' } });
    }
  }
}

/** The request's tokens and the window they overflow (the fault's, or one token short). */
export function overflow(
  fault: Extract<ErrorFault, { kind: 'context-length-exceeded' }>,
  request?: ModelRequest,
): { tokens: number; max: number } {
  const tokens = tokensOf(request?.bytes ?? 0);
  return { tokens, max: fault.maxTokens ?? Math.max(1, tokens - 1) };
}
