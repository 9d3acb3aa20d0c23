/**
 * A conversation with the mock model through a real client library, as a foreign agent holds
 * one: OpenAI's `openai` (Chat Completions or Responses, the latter also chained through
 * previous_response_id) or Anthropic's `@anthropic-ai/sdk` (Messages), streaming or not. No
 * longrun metadata is sent: the run is found from the marker in the user's request.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ContentPart, ToolResult } from '../../src/contract/messages.ts';
import { ANTHROPIC_TOOLS, CHAT_TOOLS, RESPONSES_TOOLS } from './sandbox-tools.ts';

export type PlayerKind = 'chat-completions' | 'responses' | 'responses-chained' | 'messages';
export const PLAYER_KINDS: readonly PlayerKind[] = ['chat-completions', 'responses', 'responses-chained', 'messages'];

export interface PlayedCall {
  id: string;
  name: string;
  /** JSON text, as the plan wrote it. */
  arguments: string;
}

/** One answer of the model, read back from the client library's own types. */
export interface PlayedTurn {
  text: string;
  calls: PlayedCall[];
  inputTokens: number;
  outputTokens: number;
}

export interface Player {
  /** Sends the user's request; the model's first answer. */
  start(userRequest: string): Promise<PlayedTurn>;
  /** Sends the results of the last answer's calls; the next answer. */
  next(results: readonly ToolResult[]): Promise<PlayedTurn>;
}

export interface PlayerOptions {
  /** The mock's model base URL (…/v1). */
  modelBaseUrl: string;
  stream: boolean;
  model?: string;
  systemPrompt?: string;
  maxRetries?: number;
  /** The agent's own tools, offered instead of the sandbox's. */
  tools?: readonly FunctionTool[];
}

/** A function tool as an agent declares it, whatever the format. */
export interface FunctionTool {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

export function openAIClient(options: Pick<PlayerOptions, 'modelBaseUrl' | 'maxRetries'>): OpenAI {
  return new OpenAI({ baseURL: options.modelBaseUrl, apiKey: 'test-key', maxRetries: options.maxRetries ?? 0 });
}

/** Anthropic's SDK adds /v1/messages to its base URL. */
export function anthropicClient(options: Pick<PlayerOptions, 'modelBaseUrl' | 'maxRetries'>): Anthropic {
  return new Anthropic({ baseURL: options.modelBaseUrl.replace(/\/v1\/?$/, ''), apiKey: 'test-key', maxRetries: options.maxRetries ?? 0 });
}

export function createPlayer(kind: PlayerKind, options: PlayerOptions): Player {
  const model = options.model ?? 'agent-model';
  const system = options.systemPrompt ?? 'You are a coding agent.';
  const own = options.tools;
  switch (kind) {
    case 'chat-completions': {
      const tools = own?.map((t): OpenAI.ChatCompletionFunctionTool => ({ type: 'function', function: t })) ?? CHAT_TOOLS;
      return chatPlayer(openAIClient(options), model, system, options.stream, tools);
    }
    case 'responses':
    case 'responses-chained': {
      const tools = own?.map((t): OpenAI.Responses.FunctionTool => ({ type: 'function', strict: false, ...t })) ?? RESPONSES_TOOLS;
      return responsesPlayer(openAIClient(options), model, system, options.stream, kind === 'responses-chained', tools);
    }
    case 'messages': {
      const tools =
        own?.map(
          (t): Anthropic.Tool => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Tool.InputSchema }),
        ) ?? ANTHROPIC_TOOLS;
      return anthropicPlayer(anthropicClient(options), model, system, options.stream, tools);
    }
  }
}

function chatPlayer(client: OpenAI, model: string, system: string, stream: boolean, tools: OpenAI.ChatCompletionTool[]): Player {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  const ask = async (): Promise<PlayedTurn> => {
    const completion = stream
      ? await client.chat.completions.stream({ model, messages, tools, stream_options: { include_usage: true } }).finalChatCompletion()
      : await client.chat.completions.create({ model, messages, tools });
    const message = completion.choices[0]?.message;
    if (!message) throw new Error('no choice in the completion');
    messages.push(message);
    return {
      text: message.content ?? '',
      calls: (message.tool_calls ?? []).flatMap((c) =>
        c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
      ),
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    };
  };
  return {
    start(userRequest) {
      messages.push({ role: 'user', content: userRequest });
      return ask();
    },
    next(results) {
      for (const result of results) messages.push({ role: 'tool', tool_call_id: result.tool_call_id, content: textOnly(result) });
      return ask();
    },
  };
}

function responsesPlayer(
  client: OpenAI,
  model: string,
  instructions: string,
  stream: boolean,
  chained: boolean,
  tools: OpenAI.Responses.FunctionTool[],
): Player {
  let input: OpenAI.Responses.ResponseInputItem[] = [];
  let previous: string | undefined;
  const ask = async (): Promise<PlayedTurn> => {
    const body = { model, instructions, input, tools, ...(previous ? { previous_response_id: previous } : {}) };
    const response = stream ? await client.responses.stream(body).finalResponse() : await client.responses.create(body);
    if (chained) {
      previous = response.id;
      input = [];
    } else {
      input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
    }
    return {
      text: response.output_text,
      calls: response.output.flatMap((o) => (o.type === 'function_call' ? [{ id: o.call_id, name: o.name, arguments: o.arguments }] : [])),
      inputTokens: response.usage?.input_tokens ?? 0,
      outputTokens: response.usage?.output_tokens ?? 0,
    };
  };
  return {
    start(userRequest) {
      input.push({ role: 'user', content: userRequest });
      return ask();
    },
    next(results) {
      for (const result of results) {
        const output = parts(result).map((part): OpenAI.Responses.ResponseInputText | OpenAI.Responses.ResponseInputImage =>
          part.type === 'text'
            ? { type: 'input_text', text: part.text }
            : { type: 'input_image', image_url: part.image_url.url, detail: 'auto' },
        );
        input.push({ type: 'function_call_output', call_id: result.tool_call_id, output });
      }
      return ask();
    },
  };
}

function anthropicPlayer(client: Anthropic, model: string, system: string, stream: boolean, tools: Anthropic.Tool[]): Player {
  const messages: Anthropic.MessageParam[] = [];
  const ask = async (): Promise<PlayedTurn> => {
    const body = { model, max_tokens: 8192, system, messages, tools };
    const message = stream ? await client.messages.stream(body).finalMessage() : await client.messages.create(body);
    messages.push({ role: 'assistant', content: message.content });
    return {
      text: message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
      calls: message.content.flatMap((b) =>
        b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: JSON.stringify(b.input) }] : [],
      ),
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
    };
  };
  return {
    start(userRequest) {
      messages.push({ role: 'user', content: userRequest });
      return ask();
    },
    next(results) {
      messages.push({
        role: 'user',
        content: results.map((result) => ({
          type: 'tool_result' as const,
          tool_use_id: result.tool_call_id,
          content: parts(result).map((part): Anthropic.TextBlockParam | Anthropic.ImageBlockParam =>
            part.type === 'text'
              ? { type: 'text', text: part.text }
              : { type: 'image', source: { type: 'base64', media_type: 'image/png', data: part.image_url.url.split(',')[1] ?? '' } },
          ),
        })),
      });
      return ask();
    },
  };
}

function parts(result: ToolResult): ContentPart[] {
  return typeof result.content === 'string' ? [{ type: 'text', text: result.content }] : result.content;
}

/** Chat Completions' tool messages hold text only: a screenshot's caption stays. */
function textOnly(result: ToolResult): string {
  return parts(result)
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n');
}

/** Runs a call in the mock sandbox, as a foreign agent's tool would. */
export async function runTool(sandboxBaseUrl: string, runId: string, turn: number, call: PlayedCall): Promise<ToolResult> {
  const response = await fetch(`${sandboxBaseUrl}/tools/${call.name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      runId,
      turn,
      call: { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } },
    }),
  });
  if (!response.ok) throw new Error(`sandbox ${call.name}: ${response.status} ${await response.text()}`);
  return (await response.json()) as ToolResult;
}

export interface PlayedRun {
  turns: PlayedTurn[];
}

/** Plays a whole run: the request, then each answer's calls in the sandbox, until an answer calls nothing. */
export async function playRun(
  player: Player,
  options: {
    sandboxBaseUrl: string;
    runId: string;
    userRequest: string;
    maxTurns?: number;
    /** Runs a call of the agent's own tools; the sandbox runs the rest. */
    ownTool?: (call: PlayedCall, turn: number) => Promise<ToolResult> | null;
  },
): Promise<PlayedRun> {
  const turns = [await player.start(options.userRequest)];
  for (let turn = 1; (turns.at(-1) as PlayedTurn).calls.length > 0; turn++) {
    if (turn >= (options.maxTurns ?? 1000)) throw new Error(`${options.runId}: no final answer within ${turn} turns`);
    const calls = (turns.at(-1) as PlayedTurn).calls;
    const run = (call: PlayedCall) => options.ownTool?.(call, turn) ?? runTool(options.sandboxBaseUrl, options.runId, turn, call);
    const results = await Promise.all(calls.map(run));
    turns.push(await player.next(results));
  }
  return { turns };
}
