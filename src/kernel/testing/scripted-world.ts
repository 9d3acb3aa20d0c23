/**
 * A small scripted world for the kernel's own tests: MSW handlers for the agent model (tool
 * calls of a fixed size every turn, then a final answer), the compaction model (a valid card,
 * or failure) and the sandbox (text of the requested size, screenshots as data URLs). Every
 * request is logged with its size, so a test can see what the kernel sent.
 */
import { HttpResponse, http, type RequestHandler } from 'msw';
import type { RunToolInput } from '../../contract/kernel-api.ts';
import { CARD_SECTIONS } from '../../contract/limits.ts';
import type { ChatRequest, ChatResponse, ContentPart, ToolCall } from '../../contract/messages.ts';

export const MODEL_BASE_URL = 'http://model.kernel.test/v1';
export const SANDBOX_BASE_URL = 'http://sandbox.kernel.test/v1';

export interface Script {
  /** The turn whose answer has no tool calls. */
  turns: number;
  /** Text bytes of the shell output of every turn. */
  toolBytes: number;
  /** A screenshot call too on every nth turn. */
  screenshotEvery?: number;
  screenshotBytes?: number;
  /** How the compaction model answers. */
  compaction: 'card' | 'http-500' | 'invalid-card';
}

export interface LoggedRequest {
  runId: string;
  turn: number;
  bytes: number;
  request: ChatRequest;
}

export interface ScriptedWorld {
  handlers: RequestHandler[];
  agentRequests: LoggedRequest[];
  compactionRequests: LoggedRequest[];
  toolCalls: number;
}

export function scriptedWorld(script: Script): ScriptedWorld {
  const world: ScriptedWorld = { handlers: [], agentRequests: [], compactionRequests: [], toolCalls: 0 };
  world.handlers = [
    http.post(`${MODEL_BASE_URL}/chat/completions`, async ({ request }) => {
      const text = await request.text();
      const body = JSON.parse(text) as ChatRequest;
      const purpose = body.metadata?.longrun_purpose;
      const logged = {
        runId: body.metadata?.longrun_run_id ?? '',
        turn: Number(body.metadata?.longrun_turn),
        bytes: Buffer.byteLength(text),
        request: body,
      };
      if (purpose === 'compaction') {
        world.compactionRequests.push(logged);
        if (script.compaction === 'http-500') return HttpResponse.json({ error: 'compaction model down' }, { status: 500 });
        const card = script.compaction === 'card' ? cardFor(logged.turn) : 'not a card';
        return HttpResponse.json(completion(body.model, card, []));
      }
      world.agentRequests.push(logged);
      return HttpResponse.json(completion(body.model, logged.turn >= script.turns ? 'done' : null, toolCalls(script, logged.turn)));
    }),
    http.post(`${SANDBOX_BASE_URL}/tools/:name`, async ({ request, params }) => {
      const input = (await request.json()) as RunToolInput;
      const args = JSON.parse(input.call.function.arguments) as { seed: number; bytes: number };
      world.toolCalls++;
      const content: string | ContentPart[] =
        params.name === 'screenshot'
          ? [{ type: 'image_url', image_url: { url: `data:image/png;base64,iVBORw0KGgo${'Q'.repeat(args.bytes)}` } }]
          : shellOutput(args.seed, args.bytes);
      return HttpResponse.json({ tool_call_id: input.call.id, content });
    }),
  ];
  return world;
}

function toolCalls(script: Script, turn: number): ToolCall[] {
  if (turn >= script.turns) return [];
  const call = (name: string, index: number, bytes: number): ToolCall => ({
    id: `call_${turn}_${index}`,
    type: 'function',
    function: { name, arguments: JSON.stringify({ seed: turn * 10 + index, bytes }) },
  });
  const calls = [call('shell', 0, script.toolBytes)];
  if (script.screenshotEvery && turn % script.screenshotEvery === 0) {
    calls.push(call('screenshot', 1, script.screenshotBytes ?? 10_000));
  }
  return calls;
}

/** A shell output of exactly `bytes` ASCII bytes that names a file and a hash of its seed. */
function shellOutput(seed: number, bytes: number): string {
  const line = `/srv/app/module-${seed}.ts sha=${(seed * 2654435761) % 4294967296} ok\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

function cardFor(turn: number): string {
  return CARD_SECTIONS.map((section) => `${section}\ncompacted at turn ${turn}: /srv/app/module-${turn}.ts`).join('\n');
}

function completion(model: string, content: string | null, calls: ToolCall[]): ChatResponse {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: calls.length > 0 ? { role: 'assistant', content, tool_calls: calls } : { role: 'assistant', content },
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  };
}
