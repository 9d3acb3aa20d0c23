/**
 * The sandbox API mock: POST {sandboxBaseUrl}/tools/{name} with a RunToolInput, answered with
 * the ToolResult that the call's self-describing arguments (seed, bytes, details) produce.
 */
import { http, type RequestHandler } from 'msw';
import { z } from 'zod';
import type { RunToolInput } from '../../src/contract/kernel-api.ts';
import { TOOL_NAMES, type ToolName, type ToolResult } from '../../src/contract/messages.ts';
import { BINARY_HEADER } from '../../src/contract/run-marker.ts';
import { FaultPicker } from '../faults/fault-picker.ts';
import type { FaultKind, FaultProfile } from '../faults/fault-profile.ts';
import { respond } from '../faults/fault-response.ts';
import type { MockRecorder } from '../recorder/mock-recorder.ts';
import { parseToolArgs, toolOutput } from '../synthetic/tool-output.ts';
import { parseBody } from './json-body.ts';
import { openAIFault, openAIInvalid } from './openai-errors.ts';

export const DEFAULT_SANDBOX_BASE_URL = 'http://sandbox.longrun.test/v1';

export interface SandboxHandlerOptions {
  sandboxBaseUrl?: string;
  faults?: FaultProfile;
  recorder?: MockRecorder;
}

const inputSchema = z.looseObject({
  runId: z.string().min(1),
  turn: z.number().int().positive(),
  call: z.looseObject({
    id: z.string().min(1),
    function: z.looseObject({ name: z.string(), arguments: z.string() }),
  }),
});

export function createSandboxHandlers(options: SandboxHandlerOptions = {}): RequestHandler[] {
  const base = (options.sandboxBaseUrl ?? DEFAULT_SANDBOX_BASE_URL).replace(/\/$/, '');
  const picker = new FaultPicker(options.faults);

  return [
    http.post(`${base}/tools/:name`, async ({ request, params }) => {
      const text = await request.text();
      const tool = String(params.name);
      const binary = request.headers.get(BINARY_HEADER);
      const record = (
        runId: string | null,
        turn: number | null,
        status: number,
        responseBytes: number,
        fault: FaultKind | null,
        refusal: string | null = null,
      ) =>
        options.recorder?.record({
          target: 'sandbox',
          runId,
          binary,
          turn,
          model: null,
          tool,
          stream: false,
          requestBytes: Buffer.byteLength(text),
          responseBytes,
          status,
          fault,
          refusal,
        });
      let input: RunToolInput;
      let args: ReturnType<typeof parseToolArgs>;
      try {
        input = readInput(text, tool);
        args = parseToolArgs(tool as ToolName, JSON.parse(input.call.function.arguments));
      } catch (error) {
        const status = (TOOL_NAMES as readonly string[]).includes(tool) ? 400 : 404;
        const message = (error as Error).message;
        const failure = openAIInvalid(status, message);
        const owner = ownerOf(text);
        return respond(
          () => failure,
          null,
          request.signal,
          (sent, bytes) => record(owner.runId, owner.turn, sent, bytes, null, message),
          openAIFault,
        );
      }
      const picked = picker.pick('sandbox', {
        runId: input.runId,
        turn: input.turn,
        callId: input.call.id,
      });
      const answer = () => {
        const result: ToolResult = {
          tool_call_id: input.call.id,
          content: toolOutput(tool as ToolName, args),
        };
        return {
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify(result),
        };
      };
      return respond(
        answer,
        picked,
        request.signal,
        (status, bytes) => record(input.runId, input.turn, status, bytes, picked?.fault.kind ?? null),
        openAIFault,
      );
    }),
  ];
}

/** The run and turn a refused body names, when it is JSON enough to tell. */
export function ownerOf(text: string): { runId: string | null; turn: number | null } {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null) return { runId: null, turn: null };
    const { runId, turn } = body as Record<string, unknown>;
    return { runId: typeof runId === 'string' ? runId : null, turn: typeof turn === 'number' ? turn : null };
  } catch {
    return { runId: null, turn: null };
  }
}

function readInput(text: string, tool: string): RunToolInput {
  if (!(TOOL_NAMES as readonly string[]).includes(tool))
    throw new Error(`tool: unknown tool ${JSON.stringify(tool)}, expected one of ${TOOL_NAMES.join(', ')}`);
  const input = parseBody(text, inputSchema) as unknown as RunToolInput;
  if (input.call.function.name !== tool) {
    throw new Error(
      `body.call.function.name: ${JSON.stringify(input.call.function.name)} does not match the path's tool ${JSON.stringify(tool)}`,
    );
  }
  try {
    JSON.parse(input.call.function.arguments);
  } catch {
    throw new Error('body.call.function.arguments: not valid JSON');
  }
  return input;
}
