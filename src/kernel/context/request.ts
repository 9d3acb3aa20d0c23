/**
 * The agent's request to the model for one turn, and its size as the trigger and the guard
 * measure it: UTF-8 bytes of the ChatRequest's JSON.
 */
import type { ChatRequest, Message, ToolDefinition } from '../../contract/messages.ts';
import { TOOL_NAMES, type ToolName } from '../../contract/messages.ts';
import { jsonBytes } from './bytes.ts';

const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  screenshot: 'Take a screenshot of the screen.',
  shell: 'Run a shell command and return its output.',
  read_file: 'Read a file and return its content.',
  list_files: 'List the files under a directory.',
  diff: 'Show the changes made to the workspace.',
};

export const TOOL_DEFINITIONS: ToolDefinition[] = TOOL_NAMES.map((name) => ({
  type: 'function',
  function: {
    name,
    description: TOOL_DESCRIPTIONS[name],
    parameters: {
      type: 'object',
      properties: { seed: { type: 'integer' }, bytes: { type: 'integer' } },
      required: ['seed', 'bytes'],
    },
  },
}));

export interface AgentRequestInput {
  runId: string;
  turn: number;
  model: string;
  messages: Message[];
}

export function buildAgentRequest(input: AgentRequestInput): ChatRequest {
  return {
    model: input.model,
    messages: input.messages,
    tools: TOOL_DEFINITIONS,
    metadata: {
      longrun_run_id: input.runId,
      longrun_turn: String(input.turn),
      longrun_purpose: 'agent',
    },
  };
}

/** Bytes of a payload without its message list (the list serialized as `[]` counts 2 of them). */
export function overheadBytes(payloadWithoutMessages: unknown): number {
  return jsonBytes(payloadWithoutMessages) - 2;
}
