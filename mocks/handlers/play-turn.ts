/**
 * A planned turn played against the tools a request offers. Each planned call goes to the
 * sandbox tool it names when offered; else to the agent's tool mapped to it (toolMap), with the
 * planned arguments; else, when the request offers no sandbox tool at all, to one of the
 * agent's own tools, picked and given arguments from its schema, seeded by (run, turn, call),
 * and the turn's text grows by the bytes the planned output would have carried. Anything else
 * is a refusal: a model calls only the tools it is offered. A turn that ends a user message of a
 * conversation is a final answer whatever the plan calls.
 */
import type { ToolCall } from '../../src/contract/messages.ts';
import { carriedBytes, carriedText } from '../synthetic/carried-text.ts';
import type { AssistantMessage, PlannedCall, PlannedTurn, RunPlan } from '../synthetic/plan-run.ts';
import { hash32 } from '../synthetic/random.ts';
import { argumentsProblem, schemaProblem } from './argument-schema.ts';
import { schemaArguments } from './schema-arguments.ts';
import { isSandboxTool, type ToolMap } from './tool-map.ts';
import type { OfferedTool } from './wire-format.ts';

export interface PlayTurnInput {
  plan: RunPlan;
  planned: PlannedTurn;
  /** The turn ends a user message's share of a conversation: a final answer, the planned calls' bytes carried in its text. */
  endsMessage?: boolean;
  /** The run and turn as the request names them, for the refusals. */
  runId: string;
  turn: number;
  offered: readonly OfferedTool[];
  toolMap: ToolMap;
  /** The schema the request asks a final answer's text to fit (structured output). */
  outputSchema?: Record<string, unknown>;
}

export type PlayedTurn = { message: AssistantMessage } | { refusal: string };

export function playTurn(input: PlayTurnInput): PlayedTurn {
  const { plan, planned, offered, toolMap } = input;
  if (planned.calls.length === 0 || input.endsMessage) return { message: finalAnswer(input) };
  const byName = (a: OfferedTool, b: OfferedTool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const names = new Set(offered.map((tool) => tool.name));
  const sandboxOffered = offered.some((tool) => isSandboxTool(tool.name));
  // Sorted, so that the client's order of its tools does not change the answer.
  const own = offered.filter((tool) => !isSandboxTool(tool.name) && toolMap[tool.name] === undefined && !tool.providerDefined);
  own.sort(byName);
  const calls: ToolCall[] = [];
  let carried = 0;
  for (const [index, call] of planned.calls.entries()) {
    const asPlanned = (name: string): ToolCall => ({
      id: call.id,
      type: 'function',
      function: { name, arguments: JSON.stringify(call.args) },
    });
    if (names.has(call.tool)) {
      calls.push(asPlanned(call.tool));
      continue;
    }
    const mapped = offered.filter((tool) => toolMap[tool.name] === call.tool).sort(byName)[0];
    if (mapped) {
      const problem = argumentsProblemOf(mapped, call.args);
      if (problem) return { refusal: `${refusalHead(input, call)} as ${mapped.name} (toolMap), and ${problem}` };
      calls.push(asPlanned(mapped.name));
      continue;
    }
    if (sandboxOffered || own.length === 0) return { refusal: unofferedRefusal(input, call, sandboxOffered) };
    const tool = own[hash32(plan.seed, plan.runId, planned.turn, index, 'tool') % own.length] as OfferedTool;
    const unreadable = tool.parameters === null ? null : schemaProblem(tool.parameters);
    if (unreadable) return { refusal: `${refusalHead(input, call)} as ${tool.name}, whose parameters are no JSON Schema: ${unreadable}` };
    const where = `${tool.name} (call ${index} of turn ${planned.turn} of ${plan.runId})`;
    const args = schemaArguments(tool.parameters, hash32(plan.seed, plan.runId, planned.turn, index, 'arguments'), where);
    calls.push({ id: call.id, type: 'function', function: { name: tool.name, arguments: JSON.stringify(args) } });
    carried += carriedBytes(call);
  }
  const content = `${planned.message.content ?? ''}${carried > 0 ? carriedText(plan, planned.turn, carried) : ''}`;
  return { message: { role: 'assistant', content, tool_calls: calls } };
}

/**
 * The plan's final answer; asked for structured output, a value of the schema asked for
 * (seeded by run and turn), as an agent with an output type of its own parses it.
 */
function finalAnswer({ plan, planned, outputSchema }: PlayTurnInput): AssistantMessage {
  if (!outputSchema && planned.calls.length > 0) {
    const carried = planned.calls.reduce((sum, call) => sum + carriedBytes(call), 0);
    return { role: 'assistant', content: `${planned.message.content ?? ''}${carriedText(plan, planned.turn, carried)}` };
  }
  if (!outputSchema) return planned.message;
  const where = `the final answer (turn ${planned.turn} of ${plan.runId})`;
  const value = schemaArguments(outputSchema, hash32(plan.seed, plan.runId, planned.turn, 'output'), where);
  return { ...planned.message, content: JSON.stringify(value) };
}

function refusalHead(input: PlayTurnInput, call: PlannedCall): string {
  return `body.tools: turn ${input.turn} of ${input.runId} calls ${call.tool}`;
}

function unofferedRefusal(input: PlayTurnInput, call: PlannedCall, sandboxOffered: boolean): string {
  if (input.offered.length === 0) return `${refusalHead(input, call)}, and it offers no tools`;
  const offered = `it offers ${input.offered.map((tool) => tool.name).join(', ')}`;
  // With the sandbox's tools in the request the plan's own tool is expected; without, a tool of the agent's.
  if (sandboxOffered) return `${refusalHead(input, call)}, and ${offered}`;
  return `${refusalHead(input, call)}, and ${offered}: none of the agent's own to play it with, nor one mapped to ${call.tool} (toolMap)`;
}

function argumentsProblemOf(tool: OfferedTool, args: PlannedCall['args']): string | null {
  if (tool.parameters === null) return null;
  const unreadable = schemaProblem(tool.parameters);
  if (unreadable) return `its parameters are no JSON Schema: ${unreadable}`;
  const problem = argumentsProblem(tool.parameters, args);
  return problem && `the planned arguments do not fit its parameters: ${problem}`;
}
