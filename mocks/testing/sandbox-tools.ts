/**
 * The sandbox's tools as each wire format offers them. A model calls only the tools a request
 * offers, and so does the mock: a test's request for a turn with tool calls offers these.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { TOOL_NAMES, type ToolDefinition } from '../../src/contract/messages.ts';

const ARGUMENTS = {
  type: 'object' as const,
  properties: { seed: { type: 'integer' }, bytes: { type: 'integer' } },
  required: ['seed', 'bytes'],
};

export const CHAT_TOOLS: ToolDefinition[] = TOOL_NAMES.map((name) => ({
  type: 'function',
  function: { name, description: `The sandbox's ${name}.`, parameters: ARGUMENTS },
}));

export const RESPONSES_TOOLS: OpenAI.Responses.FunctionTool[] = TOOL_NAMES.map((name) => ({
  type: 'function',
  name,
  parameters: ARGUMENTS,
  strict: false,
}));

export const ANTHROPIC_TOOLS: Anthropic.Tool[] = TOOL_NAMES.map((name) => ({ name, input_schema: ARGUMENTS }));
