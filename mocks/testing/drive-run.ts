/**
 * A minimal client that plays one run against the mocks over real HTTP, the way a kernel
 * would without compaction: call the model, run each tool call in the sandbox, append, repeat
 * until the model answers without tool calls. Keeps every exchange's bytes.
 */
import type { ChatRequest, ChatResponse, Message, ToolResult } from '../../src/contract/messages.ts';
import { CHAT_TOOLS } from './sandbox-tools.ts';

export interface DriveRunOptions {
  modelBaseUrl: string;
  sandboxBaseUrl: string;
  runId: string;
  systemPrompt: string;
  userRequest: string;
  model?: string;
  /** Leave metadata out, as a client that does not know about longrun would. */
  withoutMetadata?: boolean;
  maxTurns?: number;
}

export interface Exchange {
  url: string;
  request: string;
  status: number;
  response: string;
}

export interface DrivenRun {
  messages: Message[];
  exchanges: Exchange[];
  turns: number;
}

export async function driveRun(options: DriveRunOptions): Promise<DrivenRun> {
  const messages: Message[] = [
    { role: 'system', content: options.systemPrompt },
    { role: 'user', content: options.userRequest },
  ];
  const exchanges: Exchange[] = [];
  const post = async (url: string, body: unknown): Promise<string> => {
    const request = JSON.stringify(body);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: request,
    });
    const text = await response.text();
    exchanges.push({ url, request, status: response.status, response: text });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${text}`);
    return text;
  };
  for (let turn = 1; turn <= (options.maxTurns ?? 1000); turn++) {
    const request: ChatRequest = {
      model: options.model ?? 'agent-model',
      messages,
      tools: CHAT_TOOLS,
    };
    if (!options.withoutMetadata) {
      request.metadata = {
        longrun_run_id: options.runId,
        longrun_turn: String(turn),
        longrun_purpose: 'agent',
      };
    }
    const completion = JSON.parse(await post(`${options.modelBaseUrl}/chat/completions`, request)) as ChatResponse;
    const message = completion.choices[0]?.message;
    if (!message) throw new Error(`turn ${turn}: no choice in the answer`);
    messages.push(message);
    if (!message.tool_calls?.length) return { messages, exchanges, turns: turn };
    for (const call of message.tool_calls) {
      const url = `${options.sandboxBaseUrl}/tools/${call.function.name}`;
      const result = JSON.parse(await post(url, { runId: options.runId, turn, call })) as ToolResult;
      messages.push({
        role: 'tool',
        tool_call_id: result.tool_call_id,
        content: result.content,
      });
    }
  }
  throw new Error(`${options.runId}: no final answer within ${options.maxTurns} turns`);
}
