/** The wire formats the model API mock speaks, each at its own path under the model base URL. */
import { anthropicAnswer, anthropicError, anthropicFault } from './anthropic-answer.ts';
import { readAnthropicRequest } from './anthropic-request.ts';
import { completionAnswer } from './chat-answer.ts';
import { readChatRequest } from './chat-request.ts';
import { openAIFault, openAIInvalid } from './openai-errors.ts';
import { responsesAnswer } from './responses-answer.ts';
import { readResponsesRequest } from './responses-request.ts';
import type { WireFormat } from './wire-format.ts';

/** OpenAI Chat Completions: what the kernel speaks. */
export const CHAT_COMPLETIONS: WireFormat = {
  name: 'chat-completions',
  path: '/chat/completions',
  read: readChatRequest,
  render: completionAnswer,
  error: (fault, request) => openAIFault(fault, request, 'messages'),
  invalid: (message) => openAIInvalid(400, message),
};

/** The OpenAI Responses API: what the OpenAI Agents SDK speaks by default. */
export const RESPONSES: WireFormat = {
  name: 'responses',
  path: '/responses',
  read: readResponsesRequest,
  render: responsesAnswer,
  error: (fault, request) => openAIFault(fault, request, 'input'),
  invalid: (message) => openAIInvalid(400, message),
};

/** Anthropic's Messages API (its SDKs post to {baseURL}/v1/messages). */
export const ANTHROPIC_MESSAGES: WireFormat = {
  name: 'messages',
  path: '/messages',
  read: readAnthropicRequest,
  render: anthropicAnswer,
  error: anthropicFault,
  invalid: (message) => anthropicError(400, 'invalid_request_error', message),
};

export const WIRE_FORMATS: readonly WireFormat[] = [CHAT_COMPLETIONS, RESPONSES, ANTHROPIC_MESSAGES];
