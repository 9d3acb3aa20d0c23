/**
 * The wire format of the model API (OpenAI-compatible chat completions) as the kernel and
 * the mocks both speak it. Workflow-safe: types and pure functions only.
 */

export interface TextPart {
  type: 'text';
  text: string;
}
export interface ImagePart {
  type: 'image_url';
  image_url: { url: string };
}
export type ContentPart = TextPart | ImagePart;

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type Message =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string | ContentPart[] }
  | CompactionItem;

/**
 * A compaction the provider made of the conversation (the OpenAI Responses API's `compaction`
 * output item): sent back as it came, it stands for every item before it, which the
 * conversation then drops. `content` is the item's `encrypted_content`, opaque. Only a kernel
 * that lets the provider compact holds one.
 */
export interface CompactionItem {
  role: 'compaction';
  id: string;
  content: string;
}

/** Metadata the kernel sends with every request so that the mocks can answer per run and turn. */
export interface RequestMetadata {
  longrun_run_id: string;
  longrun_turn: string;
  longrun_purpose: 'agent' | 'compaction';
}

export interface ChatRequest {
  model: string;
  messages: Message[];
  tools?: ToolDefinition[];
  stream?: boolean;
  metadata?: RequestMetadata;
  /**
   * Provider-side compaction past `compact_threshold` input tokens (the Responses API's field):
   * a request that names it goes to `{modelBaseUrl}/responses`, not `/chat/completions`.
   */
  context_management?: ContextManagement[];
}

export interface ContextManagement {
  type: 'compaction';
  compact_threshold: number;
}

export interface ToolDefinition {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
  };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: number;
    message: Extract<Message, { role: 'assistant' }>;
    finish_reason: 'stop' | 'tool_calls' | 'length';
  }[];
  usage: Usage;
}

/** The tools the synthetic agent calls; the sandbox API serves each at POST /sandbox/v1/tools/{name}. */
export const TOOL_NAMES = ['screenshot', 'shell', 'read_file', 'list_files', 'diff'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/**
 * Every synthetic tool call is self-describing: its arguments carry the seed and the size of
 * its output, so the sandbox answers statelessly and byte-identically from any process.
 */
export interface SyntheticToolArgs {
  seed: number;
  bytes: number;
  [detail: string]: unknown;
}

/** What the sandbox API returns for one tool call. */
export interface ToolResult {
  tool_call_id: string;
  content: string | ContentPart[];
}
