/**
 * The sandbox API mock: POST {sandboxBaseUrl}/tools/{name} with a RunToolInput, answered with
 * the ToolResult that the call's self-describing arguments (seed, bytes, details) produce.
 */
import { http, type RequestHandler } from 'msw';
import { z } from 'zod';
import type { RunToolInput } from '../../src/contract/kernel-api.ts';
import { TOOL_NAMES, type ToolName, type ToolResult } from '../../src/contract/messages.ts';
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
      const record = (runId: string | null, turn: number | null, status: number, responseBytes: number, fault: FaultKind | null) =>
        options.recorder?.record({
          target: 'sandbox',
          runId,
          turn,
          model: null,
          tool,
          stream: false,
          requestBytes: Buffer.byteLength(text),
          responseBytes,
          status,
          fault,
        });
      let input: RunToolInput;
      let args: ReturnType<typeof parseToolArgs>;
      try {
        input = readInput(text, tool);
        args = parseToolArgs(tool as ToolName, JSON.parse(input.call.function.arguments));
      } catch (error) {
        const status = (TOOL_NAMES as readonly string[]).includes(tool) ? 400 : 404;
        const failure = openAIInvalid(status, (error as Error).message);
        return respond(
          () => failure,
          null,
          request.signal,
          (sent, bytes) => record(null, null, sent, bytes, null),
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
