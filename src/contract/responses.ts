/**
 * The part of the OpenAI Responses API (`POST {modelBaseUrl}/responses`, non-streaming) that a
 * kernel letting the provider compact its conversation speaks: the input items its messages
 * become, the output items its answer comes back as, and `context_management` of type
 * `compaction`. The workflow keeps its own messages (messages.ts); the activity converts at the
 * wire. Workflow-safe: types and constants only.
 */
import type { ContextManagement } from './messages.ts';

/** OpenAI's least `compact_threshold` (input tokens): a smaller one is refused with a 400. */
export const RESPONSES_MIN_COMPACT_THRESHOLD = 1000;

export type ResponsesInputPart = { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'auto' };

export type ResponsesInputItem =
  | { type: 'message'; role: 'system' | 'user' | 'assistant'; content: string | ResponsesInputPart[] }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string | ResponsesInputPart[] }
  | ResponsesCompactionItem;

/** A compaction output item, sent back as it came: it stands for every item before it. */
export interface ResponsesCompactionItem {
  type: 'compaction';
  id: string;
  encrypted_content: string;
}

export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: false;
}

export interface ResponsesRequest {
  model: string;
  /** The first system message: the Responses API keeps instructions apart from the input. */
  instructions?: string;
  input: ResponsesInputItem[];
  tools?: ResponsesFunctionTool[];
  /** The kernel's RequestMetadata (the API takes string values under string keys). */
  metadata?: Record<string, string>;
  context_management?: ContextManagement[];
  /** The kernel sends the whole conversation every turn: nothing to keep on the provider's side. */
  store: false;
}

export interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}
