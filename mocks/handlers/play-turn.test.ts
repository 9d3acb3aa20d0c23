import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/contract/messages.ts';
import { carriedBytes } from '../synthetic/carried-text.ts';
import { type PlannedTurn, planRun, type RunPlan } from '../synthetic/plan-run.ts';
import { CREATE_TICKET_ZOD, FRAMEWORK_TOOLS, GET_WEATHER } from '../testing/framework-schemas.ts';
import { argumentsProblem } from './argument-schema.ts';
import { type PlayedTurn, playTurn } from './play-turn.ts';
import type { ToolMap } from './tool-map.ts';
import type { OfferedTool } from './wire-format.ts';

const SHAPE = { scale: 0.05, screenshots: { share: 0.3 }, overrides: { turns: 8, callsPerTurn: 3 } };
const plan = planRun({ seed: 5, runId: 'run-1', shape: SHAPE });
const toolTurns = plan.turns.filter((t) => t.calls.length > 0);

const offer = (...tools: { name: string; parameters: Record<string, unknown> }[]): OfferedTool[] =>
  tools.map((t) => ({ name: t.name, parameters: t.parameters }));
const SANDBOX: OfferedTool[] = TOOL_NAMES.map((name) => ({ name, parameters: { type: 'object' } }));
const GET_PAGE = {
  name: 'get_page',
  parameters: { type: 'object', properties: { seed: { type: 'integer' }, bytes: { type: 'integer' } } },
};

function play(planned: PlannedTurn, offered: readonly OfferedTool[], toolMap: ToolMap = {}, of: RunPlan = plan): PlayedTurn {
  return playTurn({ plan: of, planned, runId: of.runId, turn: planned.turn, offered, toolMap });
}

function message(played: PlayedTurn) {
  if ('refusal' in played) throw new Error(played.refusal);
  return played.message;
}

describe('playTurn with the sandbox tools offered', () => {
  it('answers as planned', () => {
    for (const turn of plan.turns) expect(message(play(turn, SANDBOX))).toEqual(turn.message);
  });

  it("refuses a planned tool the request leaves out, in today's words, even beside the agent's own tools", () => {
    const turn = toolTurns[0] as PlannedTurn;
    const tool = turn.calls[0]?.tool;
    const offered = [...SANDBOX.filter((t) => t.name !== tool), ...offer(GET_WEATHER)];
    expect(play(turn, offered)).toEqual({
      refusal: `body.tools: turn ${turn.turn} of run-1 calls ${tool}, and it offers ${offered.map((t) => t.name).join(', ')}`,
    });
  });
});

describe("playTurn with the agent's own tools (no sandbox tool offered)", () => {
  const offered = offer(GET_WEATHER, CREATE_TICKET_ZOD);

  it("calls one of them per planned call, with the plan's ids and arguments that fit the tool's schema", () => {
    const used = new Set<string>();
    for (const turn of toolTurns) {
      const calls = message(play(turn, offered)).tool_calls ?? [];
      expect(calls.map((c) => c.id)).toEqual(turn.calls.map((c) => c.id));
      for (const call of calls) {
        const tool = offered.find((t) => t.name === call.function.name) as OfferedTool;
        expect(argumentsProblem(tool.parameters, JSON.parse(call.function.arguments))).toBeNull();
        used.add(call.function.name);
      }
    }
    expect([...used].sort()).toEqual(['create_ticket', 'get_weather']);
  });

  it("grows the turn's text by exactly the bytes the planned outputs would have carried, screenshots included", () => {
    expect(toolTurns.some((t) => t.calls.some((c) => c.tool === 'screenshot'))).toBe(true);
    for (const turn of toolTurns) {
      const content = message(play(turn, offered)).content as string;
      const planned = turn.message.content as string;
      expect(content.startsWith(planned)).toBe(true);
      const carried = turn.calls.reduce((sum, call) => sum + carriedBytes(call), 0);
      expect(Buffer.byteLength(content) - Buffer.byteLength(planned)).toBe(carried);
    }
  });

  it('gives the same bytes for the same request, whatever the order the tools are offered in', () => {
    for (const turn of toolTurns) {
      const once = JSON.stringify(message(play(turn, offered)));
      expect(JSON.stringify(message(play(turn, offered)))).toBe(once);
      expect(JSON.stringify(message(play(turn, [...offered].reverse())))).toBe(once);
    }
  });

  it('answers the last turn, which calls nothing, even with no tools offered', () => {
    const last = plan.turns.at(-1) as PlannedTurn;
    expect(message(play(last, []))).toEqual(last.message);
  });

  it('refuses a turn with calls when the request offers no tools, or none it may call', () => {
    const turn = toolTurns[0] as PlannedTurn;
    const tool = turn.calls[0]?.tool;
    expect(play(turn, [])).toEqual({ refusal: `body.tools: turn ${turn.turn} of run-1 calls ${tool}, and it offers no tools` });
    const bash = { name: 'bash', parameters: null, providerDefined: true as const };
    expect(play(turn, [bash])).toEqual({
      refusal: `body.tools: turn ${turn.turn} of run-1 calls ${tool}, and it offers bash: none of the agent's own to play it with, nor one mapped to ${tool} (toolMap)`,
    });
  });

  it("fits any plan's calls to any framework's schemas (property-based)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.subarray([...FRAMEWORK_TOOLS], { minLength: 1 }), (seed, tools) => {
        const run = planRun({ seed, runId: `run-${seed % 1000}`, shape: { scale: 0.01, overrides: { turns: 4 } } });
        const given = offer(...tools);
        for (const turn of run.turns) {
          for (const call of message(play(turn, given, {}, run)).tool_calls ?? []) {
            const tool = given.find((t) => t.name === call.function.name) as OfferedTool;
            expect(argumentsProblem(tool.parameters, JSON.parse(call.function.arguments))).toBeNull();
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('playTurn with a tool map', () => {
  const screenshotTurn = toolTurns.find((t) => t.calls.some((c) => c.tool === 'screenshot')) as PlannedTurn;

  it("plays a planned call to the mapped sandbox tool as the agent's tool, with the planned arguments, and carries no bytes for it", () => {
    const played = message(play(screenshotTurn, offer(GET_WEATHER, GET_PAGE), { get_page: 'screenshot' }));
    const calls = played.tool_calls ?? [];
    screenshotTurn.calls.forEach((planned, i) => {
      const call = calls[i];
      if (planned.tool === 'screenshot') expect(call?.function).toEqual({ name: 'get_page', arguments: JSON.stringify(planned.args) });
      else expect(call?.function.name).toBe('get_weather');
    });
    const carried = screenshotTurn.calls.filter((c) => c.tool !== 'screenshot').reduce((sum, c) => sum + carriedBytes(c), 0);
    expect(Buffer.byteLength(played.content as string) - Buffer.byteLength(screenshotTurn.message.content as string)).toBe(carried);
  });

  it('maps beside the sandbox tools too', () => {
    const played = message(
      play(screenshotTurn, [...SANDBOX.filter((t) => t.name !== 'screenshot'), ...offer(GET_PAGE)], { get_page: 'screenshot' }),
    );
    expect(played.content).toBe(screenshotTurn.message.content);
    expect(played.tool_calls?.map((c) => c.function.name)).toEqual(
      screenshotTurn.calls.map((c) => (c.tool === 'screenshot' ? 'get_page' : c.tool)),
    );
  });

  it("refuses when the planned arguments do not fit the mapped tool's schema, naming the field", () => {
    const strict = {
      name: 'get_page',
      parameters: { type: 'object', properties: { url: { type: 'string' } }, additionalProperties: false },
    };
    const played = play(screenshotTurn, offer(GET_WEATHER, strict), { get_page: 'screenshot' });
    expect(played).toEqual({
      refusal: expect.stringMatching(
        new RegExp(
          `^body\\.tools: turn ${screenshotTurn.turn} of run-1 calls screenshot as get_page \\(toolMap\\), and the planned arguments do not fit its parameters: arguments must NOT have additional properties`,
        ),
      ),
    });
  });
});
