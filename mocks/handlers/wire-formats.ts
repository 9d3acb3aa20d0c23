/** The wire formats the model API mock speaks, each at its own path under the model base URL. */

import type { Answer } from '../faults/fault-response.ts';
import { anthropicAnswer, anthropicError, anthropicFault, anthropicMidStreamError } from './anthropic-answer.ts';
import { readAnthropicRequest } from './anthropic-request.ts';
import { completionAnswer } from './chat-answer.ts';
import { readChatRequest } from './chat-request.ts';
import { openAIError, openAIFault, openAIInvalid, openAITooLarge } from './openai-errors.ts';
import { responsesAnswer } from './responses-answer.ts';
import { readResponsesRequest } from './responses-request.ts';
import type { WireFormat } from './wire-format.ts';

/** OpenAI Chat Completions: what the kernel speaks. */
export const CHAT_COMPLETIONS: WireFormat = {
  name: 'chat-completions',
  paths: ['/chat/completions'],
  read: readChatRequest,
  render: completionAnswer,
  error: (fault, request) => openAIFault(fault, request, 'messages'),
  invalid: (message) => openAIInvalid(400, message),
  tooLarge: openAITooLarge,
};

/** The OpenAI Responses API: what the OpenAI Agents SDK speaks by default. */
export const RESPONSES: WireFormat = {
  name: 'responses',
  paths: ['/responses'],
  read: readResponsesRequest,
  render: responsesAnswer,
  error: (fault, request) => openAIFault(fault, request, 'input'),
  invalid: (message) => openAIInvalid(400, message),
  tooLarge: openAITooLarge,
};

/**
 * Anthropic's Messages API. Its SDKs post to {baseURL}/v1/messages: given the model base URL
 * without its `/v1` they post to /v1/messages, given it whole (LONGRUN_MODEL_URL) to
 * /v1/v1/messages; both are answered.
 */
export const ANTHROPIC_MESSAGES: WireFormat = {
  name: 'messages',
  paths: ['/messages', '/v1/messages'],
  read: readAnthropicRequest,
  render: anthropicAnswer,
  error: anthropicFault,
  invalid: (message) => anthropicError(400, 'invalid_request_error', message),
  // Anthropic's own answer to a body past its request size limit.
  tooLarge: (message) => anthropicError(413, 'request_too_large', message),
  midStreamError: anthropicMidStreamError,
};

export const WIRE_FORMATS: readonly WireFormat[] = [CHAT_COMPLETIONS, RESPONSES, ANTHROPIC_MESSAGES];

/** The format at `path` under the model base URL; undefined elsewhere (the sandbox's paths too). */
function formatAt(path: string | null): WireFormat | undefined {
  return WIRE_FORMATS.find((f) => path !== null && f.paths.includes(path));
}

/** A 413 for a body past the cap at `path` under the model base URL, in its format's shape; OpenAI's elsewhere (the sandbox's too). */
export function tooLargeAt(path: string | null, message: string): Answer {
  return formatAt(path)?.tooLarge(message) ?? openAITooLarge(message);
}

/** A 502 for a request no answer came back for from where it was sent on, in the shape of the API at `path` (as tooLargeAt). */
export function badGatewayAt(path: string | null, message: string): Answer {
  return formatAt(path)?.name === 'messages' ? anthropicError(502, 'api_error', message) : openAIError(502, 'bad_gateway', message);
}
